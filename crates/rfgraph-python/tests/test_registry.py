"""rfgraph.blocks(): the registry, from the blocks' single declarations."""

import rfgraph


def test_blocks_lists_the_registry_with_declared_params():
    blocks = {b["name"]: b for b in rfgraph.blocks()}
    assert len(blocks) > 100
    head = blocks["head"]
    assert {"name", "category", "summary", "doc", "params", "inputs", "outputs"} <= set(head)
    items = next(p for p in head["params"] if p["name"] == "items")
    assert items["type"] == "uint"
    source = blocks["sig_source"]
    kinds = next(p for p in source["params"] if p["name"] == "type")
    assert kinds["default"] == "c32"
    assert [p["name"] for p in source["outputs"]] == ["out"]
