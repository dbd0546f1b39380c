"""The README's Python example runs and its assertions hold."""

import re


def test_readme_python_example(repo):
    text = (repo / "README.md").read_text()
    section = text.split("## Python\n", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "rfgraph.VectorSource" in code
    exec(compile(code, "README.md", "exec"), {})
