"""``python -m rfgraph run FILE`` and ``python -m rfgraph check FILE``:
flowgraph files run from Python, so that their Python blocks (TOML
``kind = "python"``, GRC ``epy_block``) run too. The ``rfgraph`` binary
hands such files here. Options as ``rfgraph run``'s: ``--set``,
``--scheduler``, ``--cores``, ``--duration``, ``--stats``, ``--control``
and ``--token`` (the control port and web UI); others are refused
(argparse names them)."""

import argparse
import json
import sys
import time


def _parser():
    p = argparse.ArgumentParser(prog="python -m rfgraph", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name, what in (("run", "runs a flowgraph file"), ("check", "checks a flowgraph file")):
        c = sub.add_parser(name, help=what)
        c.add_argument("file")
        c.add_argument("--set", action="append", default=[], metavar="VAR=VALUE")
        if name == "run":
            c.add_argument("--scheduler")
            c.add_argument("--cores", type=int)
            c.add_argument("--duration", type=float, metavar="SECONDS")
            c.add_argument("--stats", action="store_true")
            c.add_argument("--control", metavar="ADDR")
            c.add_argument("--token")
    return p


def _overrides(sets):
    out = []
    for s in sets:
        name, sep, value = s.partition("=")
        if not sep or not name.strip():
            raise SystemExit(f"rfgraph: expected `--set name=value`, got {s!r}")
        out.append((name.strip(), value.strip()))
    return out


def _url_name(path):
    """The name a file's run is served as: its stem, as ``rfgraph run``
    names it."""
    import pathlib

    stem = pathlib.Path(path).stem
    return "".join(c if c.isascii() and (c.isalnum() or c == "-") else "_" for c in stem)


def main(argv=None):
    """Runs the command line; returns the exit status."""
    import rfgraph

    args = _parser().parse_args(argv)
    try:
        fg = rfgraph.FileFlowgraph(args.file, _overrides(args.set))
    except ValueError as e:
        print(f"rfgraph: {e}", file=sys.stderr)
        return 1
    if args.command == "check":
        print(f"{args.file}: ok")
        return 0
    try:
        run = fg.start(args.scheduler, args.cores)
        if args.control is not None:
            name = _url_name(args.file)
            ui = run.serve(args.control, args.token, name)
            at = run.control_url
            if run.control_token:
                at += f" (token {run.control_token})"
            print(f"rfgraph: control port: {at}", file=sys.stderr)
            print(f"rfgraph: web UI: {ui}", file=sys.stderr, flush=True)
        if args.duration is not None:
            end = time.monotonic() + args.duration
            while not run.is_finished() and time.monotonic() < end:
                time.sleep(0.05)
            run.stop()
        stats = run.wait()
    except KeyboardInterrupt:
        print("rfgraph: interrupted", file=sys.stderr)
        return 130
    except (RuntimeError, ValueError) as e:
        print(f"rfgraph: {e}", file=sys.stderr)
        return 1
    if args.stats:
        for s in stats:
            print(json.dumps(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
