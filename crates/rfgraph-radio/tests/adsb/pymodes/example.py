"""Establishes every fact of the shipped ADS-B example's expected output
(`examples/adsb/traffic.expected.jsonl` and `traffic.table.txt`, which
rfgraph's tests compare its output with) from sources other than
rfgraph: pyModeS's decoding of the same frames and the generator's truth
(`traffic.truth.jsonl`: every frame sent, its level, the position and
altitude it encodes and its sender's state).

Usage: example.py DIR (the example's directory). Prints one summary line;
exits 1 listing the disagreements.

What is checked:

1. Each message against pyModeS (`check.py`, with the receiver's
   position from the recording's `core:geolocation` and pyModeS's own
   pairing over the stream): parity, address, every field, every
   position.
2. Each message against the truth: it is one frame that was sent (same
   bits, reported at the sample where it started or the next), by that
   aircraft, of that kind, at about its level; what it reports is what
   the frame encodes: altitude, CPR format, the position within the
   CPR grid's half step, the sender's callsign, squawk, flight status
   (2 with an alert squawk, +1 on the ground) and capability (7 with an
   alert, 4 on the ground, 5 airborne), ground speed, track and vertical
   rate within what their encodings round to. Every frame the truth says
   a receiver must decode is there.
3. The table against pyModeS's decoding of the same frames (each
   aircraft's last callsign, squawk, altitude, speed, track, vertical
   rate, position, the count of its frames and when the last came) and
   against the truth (the sender's values, the last position sent, the
   levels sent, the time of the last frame sent), and its closing line's
   counts.
"""

import json
import math
import os
import sys

import pyModeS
import pyModeS.util

from check import PARITY_ADDRESSED, Checks, check_messages, finish

# Frames at 2 MS/s are reported at the sample where they start or the
# next (the preamble's first pulse may straddle the two).
SLACK = 1
# The measured pulse level of a frame against the level sent: a burst
# off the sample grid spreads each chip over two samples, which costs
# up to 6 dB at 2 MS/s; noise adds a little either way.
LEVEL_BELOW_DB = 6.5
LEVEL_ABOVE_DB = 1.0


def alert(squawk):
    """The permanent alert condition (Annex 10 Vol IV 3.1.2.6.10.1.1.1)."""
    return squawk in ("7500", "7600", "7700")


def flight_status(sender):
    """FS of a transponder in this state (Annex 10 Vol IV 3.1.2.6.5.1):
    0 airborne, 1 on the ground, 2 and 3 the same with an alert."""
    return 2 * alert(sender["squawk"]) + int(sender["on_ground"])


def capability(sender):
    """CA of a level 2+ transponder in this state (Annex 10 Vol IV
    3.1.2.5.2.2.1): 7 when FS is 2-5, else 4 on the ground, 5 airborne."""
    if alert(sender["squawk"]):
        return 7
    return 4 if sender["on_ground"] else 5


def cpr_half_steps(lat, surface, fmt):
    """Half the CPR grid step in latitude and longitude (degrees) at
    `lat`: how far an encoded position may lie from the true one (DO-260B
    A.1.7: 17 bits per zone, rounded to the nearest)."""
    span = 90.0 if surface else 360.0
    dlat = span / (60 - fmt)
    zones = max(pyModeS.util.cprNL(lat) - fmt, 1)
    dlon = span / zones
    return dlat / 2**18, dlon / 2**18


def position_error(c, m, field, got, sent, surface, fmt, slack_deg=0.0):
    """`got` lies within the CPR half step of `sent` (plus `slack_deg`)."""
    c.count(field)
    hlat, hlon = cpr_half_steps(got[0], surface, fmt)
    dlat = abs(got[0] - sent[0])
    dlon = abs((got[1] - sent[1] + 180.0) % 360.0 - 180.0)
    if dlat > hlat + slack_deg + 1e-9 or dlon > hlon + slack_deg + 1e-9:
        c.fail(m, f"{field}: {got} is {dlat:.2e}°/{dlon:.2e}° from the {sent} sent "
                  f"(half steps {hlat:.2e}°/{hlon:.2e}°)")


def angle_diff(a, b):
    return abs((a - b + 180.0) % 360.0 - 180.0)


# Surface movement bands (DO-260B 2.2.3.2.4.2): lower bound of each band
# and its step; a code stands for [value, value + step).
MOVEMENT_BANDS = [(0.125, 0.125), (1.0, 0.25), (2.0, 0.5), (15.0, 1.0), (70.0, 2.0), (100.0, 5.0)]


def movement_step(kt):
    if kt >= 175.0:
        return math.inf
    step = 0.125
    for lo, s in MOVEMENT_BANDS:
        if kt >= lo:
            step = s
    return step


def check_motion(c, m, sender, who):
    """A message's speed, track and vertical rate against the sender's."""
    gs, trk, vr = sender["ground_speed_kt"], sender["track_deg"], sender["vertical_rate_fpm"]
    kind = m.get("kind")
    if kind == "velocity":
        # Each of the east and north components is rounded to 1 kt.
        c.same(m, f"ground_speed_kt ({who})", m.get("ground_speed_kt"), gs, 0.5 * math.sqrt(2) + 1e-9, who)
        if gs > 1.0:
            tol = math.degrees(math.asin(min(1.0, 0.5 * math.sqrt(2) / gs))) + 1e-9
            c.count(f"track_deg ({who})")
            if m.get("track_deg") is None or angle_diff(m["track_deg"], trk) > tol:
                c.fail(m, f"track_deg: rfgraph {m.get('track_deg')}, {who} {trk}")
        # 64 ft/min steps, after rounding to a whole ft/min.
        c.same(m, f"vertical_rate_fpm ({who})", m.get("vertical_rate_fpm"), vr, 32.5, who)
    elif kind == "surface_position":
        c.count(f"ground_speed_kt ({who})")
        got = m.get("ground_speed_kt")
        if got is None or not (got - 1e-9 <= gs < got + movement_step(got) + 1e-9):
            c.fail(m, f"ground_speed_kt: rfgraph {got}, {who} {gs} (the band it falls in)")
        c.count(f"track_deg ({who})")
        if m.get("track_deg") is None or angle_diff(m["track_deg"], trk) > 360.0 / 256 + 1e-9:
            c.fail(m, f"track_deg: rfgraph {m.get('track_deg')}, {who} {trk}")


def match_truth(c, msgs, truth):
    """The sent frame of each message; checks every required one is there."""
    by_hex = {}
    for i, t in enumerate(truth):
        by_hex.setdefault(t["hex"], []).append(i)
    used = set()
    sent = []
    for m in msgs:
        hits = [i for i in by_hex.get(m["hex"], [])
                if 0 <= m["sample"] - truth[i]["sample"] <= SLACK and i not in used]
        c.count("sent")
        if len(hits) != 1:
            c.fail(m, f"at {m['sample']}: {len(hits)} sent frames match")
            sent.append(None)
            continue
        used.add(hits[0])
        sent.append(truth[hits[0]])
    for i, t in enumerate(truth):
        if t["decodable"]:
            c.count("required")
            if i not in used:
                c.fail(None, f"{t['hex']} at {t['sample']} ({t['kind']}) must decode but is missing")
    return sent


def check_against_truth(c, msgs, sent):
    for m, t in zip(msgs, sent):
        if t is None:
            continue
        s = t["sender"]
        who = "truth"
        c.same(m, "icao (truth)", int(m["icao"], 16), t["icao"], who=who)
        c.same(m, "kind (truth)", m.get("kind"), t["kind"], who=who)
        c.count("level (truth)")
        if not (t["level_dbfs"] - LEVEL_BELOW_DB <= m["signal_dbfs"] <= t["level_dbfs"] + LEVEL_ABOVE_DB):
            c.fail(m, f"level: rfgraph {m['signal_dbfs']} dBFS, sent at {t['level_dbfs']:.2f}")
        if t["altitude_ft"] is not None or "altitude_ft" in m:
            c.same(m, "altitude_ft (truth)", m.get("altitude_ft"), t["altitude_ft"], who=who)
        if t["cpr_format"] is not None or "cpr" in m:
            c.same(m, "cpr format (truth)", (m.get("cpr") or {}).get("format"), t["cpr_format"], who=who)
        if t["position"] is not None and "lat" in m:
            position_error(c, m, "position (truth)", (m["lat"], m["lon"]), t["position"],
                           t["kind"] == "surface_position", t["cpr_format"])
        elif "lat" in m:
            c.fail(m, "a position from a frame that sent none")
        if t["kind"] in ("identification",) or "callsign" in m:
            c.same(m, "callsign (truth)", m.get("callsign"), s["callsign"], who=who)
        if t["kind"] in ("identity", "comm_b_identity") or "squawk" in m:
            c.same(m, "squawk (truth)", m.get("squawk"), s["squawk"], who=who)
        if m["df"] in (4, 5, 20, 21):
            c.same(m, "flight_status (truth)", m.get("flight_status"), flight_status(s), who=who)
        if m["df"] in (11, 17):
            c.same(m, "capability (truth)", m.get("capability"), capability(s), who=who)
        check_motion(c, m, s, who)


def parse_table(text):
    lines = text.splitlines()
    header = lines[0].split()
    rows = {}
    for line in lines[1:-1]:
        cells = dict(zip(header, line.split()))
        rows[cells["icao"]] = cells
    return header, rows, lines[-1]


def mean_dbfs(levels):
    return 10 * math.log10(sum(10 ** (v / 10) for v in levels) / len(levels))


def num(cell):
    return None if cell == "-" else float(cell)


def check_table(c, msgs, decoded, positions, sent, text, rate):
    header, rows, closing = parse_table(text)
    want_header = ["icao", "callsign", "squawk", "alt_ft", "gs_kt", "track", "vr_fpm",
                   "lat", "lon", "msgs", "dbfs", "last_s"]
    c.same(None, "table header", header, want_header, who="rfgraph adsb's documented columns")
    # What pyModeS and the truth say of each aircraft, frame by frame.
    pms = {}
    tru = {}
    for m, d, pos, t in zip(msgs, decoded, positions, sent):
        a = pms.setdefault(d["icao"].lower(), {"msgs": 0, "levels": []})
        a["msgs"] += 1
        a["last"] = m["sample"] / rate
        a["levels"].append(m["signal_dbfs"])
        for key, theirs in [("callsign", "callsign"), ("squawk", "squawk"), ("alt_ft", "altitude")]:
            if d.get(theirs) is not None:
                a[key] = d[theirs]
        if d.get("bds") == "0,9" and d.get("groundspeed") is not None:
            a["gs"], a["gs_truncated"], a["track"] = d["groundspeed"], True, d["track"]
        if d.get("bds") == "0,9" and d.get("vertical_rate") is not None:
            a["vr"] = d["vertical_rate"]
        if d.get("bds") == "0,6":
            if d.get("groundspeed") is not None:
                a["gs"], a["gs_truncated"] = d["groundspeed"], False
            if d.get("track") is not None:
                a["track"] = d["track"]
        if pos is not None:
            a["pos"] = pos
        if t is None:
            continue
        b = tru.setdefault(f"{t['icao']:06x}", {"msgs": 0, "levels": []})
        b["msgs"] += 1
        b["last"] = t["start"] / rate
        b["levels"].append(t["level_dbfs"])
        s = t["sender"]
        if t["kind"] in ("identification", "comm_b_altitude", "comm_b_identity"):
            b["callsign"] = s["callsign"]
        if t["kind"] in ("identity", "comm_b_identity"):
            b["squawk"] = s["squawk"]
        if t["altitude_ft"] is not None:
            b["alt_ft"] = t["altitude_ft"]
        if t["kind"] in ("velocity", "surface_position"):
            b["motion"] = (t["kind"], s)
        if t["kind"] == "velocity":
            b["vr"] = s["vertical_rate_fpm"]
        if t["position"] is not None and pos is not None:
            b["pos"] = (t["position"], t["kind"] == "surface_position", t["cpr_format"])
    c.same(None, "table aircraft", sorted(rows), sorted(pms), who="pyModeS")
    c.same(None, "table aircraft (truth)", sorted(rows), sorted(tru), who="truth")
    for icao, row in rows.items():
        a, b = pms.get(icao), tru.get(icao)
        if a is None or b is None:
            continue
        m = {"hex": f"table {icao}"}
        for key in ("callsign", "squawk"):
            c.same(m, f"table {key}", row[key], str(a.get(key, "-")))
            c.same(m, f"table {key} (truth)", row[key], str(b.get(key, "-")), who="truth")
        c.same(m, "table alt_ft", num(row["alt_ft"]), a.get("alt_ft"), optional=True)
        c.same(m, "table alt_ft (truth)", num(row["alt_ft"]), b.get("alt_ft"), who="truth", optional=True)
        # Speed and track: rfgraph prints them to whole units. pyModeS
        # truncates an airborne speed to whole knots, so the printed one
        # is that or the next.
        gs, trk = num(row["gs_kt"]), num(row["track"])
        c.count("table gs_kt")
        if "gs" not in a:
            if gs is not None:
                c.fail(m, f"table gs_kt {gs}, pyModeS none")
        elif a["gs_truncated"]:
            if gs not in (a["gs"], a["gs"] + 1):
                c.fail(m, f"table gs_kt {gs}, pyModeS {a['gs']} (truncated)")
        elif gs is None or abs(gs - a["gs"]) > 0.5 + 1e-9:
            c.fail(m, f"table gs_kt {gs}, pyModeS {a['gs']}")
        c.count("table track")
        if ("track" in a) != (trk is not None) or (trk is not None and angle_diff(trk, a["track"]) > 0.5 + 1e-9):
            c.fail(m, f"table track {trk}, pyModeS {a.get('track')}")
        if "motion" in b:
            kind, s = b["motion"]
            tol = 0.5 * math.sqrt(2) if kind == "velocity" else movement_step(s["ground_speed_kt"])
            c.same(m, "table gs_kt (truth)", gs, s["ground_speed_kt"], tol + 0.5 + 1e-9, "truth")
            ttol = 360.0 / 256 if kind == "surface_position" else math.degrees(
                math.asin(min(1.0, 0.5 * math.sqrt(2) / max(s["ground_speed_kt"], 1e-9))))
            c.count("table track (truth)")
            if trk is None or angle_diff(trk, s["track_deg"]) > ttol + 0.5 + 1e-9:
                c.fail(m, f"table track {trk}, truth {s['track_deg']}")
        elif gs is not None:
            c.fail(m, f"table gs_kt {gs}: no motion was sent")
        c.same(m, "table vr_fpm", num(row["vr_fpm"]), a.get("vr"), optional=True)
        if "vr" in b:
            c.same(m, "table vr_fpm (truth)", num(row["vr_fpm"]), b["vr"], 32.5, "truth")
        elif row["vr_fpm"] != "-":
            c.fail(m, f"table vr_fpm {row['vr_fpm']}: no vertical rate was sent")
        lat, lon = num(row["lat"]), num(row["lon"])
        c.count("table position")
        if "pos" not in a:
            if lat is not None:
                c.fail(m, "table position, pyModeS none")
        elif lat is None or abs(lat - a["pos"][0]) > 0.5e-5 + 1e-12 or abs(lon - a["pos"][1]) > 0.5e-5 + 1e-12:
            c.fail(m, f"table position {lat} {lon}, pyModeS {a['pos']}")
        if "pos" in b and lat is not None:
            sent_pos, surface, fmt = b["pos"]
            position_error(c, m, "table position (truth)", (lat, lon), sent_pos, surface, fmt, 0.5e-5)
        c.same(m, "table msgs", int(row["msgs"]), a["msgs"])
        c.same(m, "table msgs (truth)", int(row["msgs"]), b["msgs"], who="truth")
        # The mean power of the last eight frames: of rfgraph's own
        # per-frame levels (to their 0.1 dB), and of the levels sent.
        c.same(m, "table dbfs", float(row["dbfs"]), mean_dbfs(a["levels"][-8:]), 0.1, "the messages")
        sent_db = mean_dbfs(b["levels"][-8:])
        c.count("table dbfs (truth)")
        if not (sent_db - LEVEL_BELOW_DB <= float(row["dbfs"]) <= sent_db + LEVEL_ABOVE_DB):
            c.fail(m, f"table dbfs {row['dbfs']}, sent at {sent_db:.2f}")
        c.same(m, "table last_s", float(row["last_s"]), a["last"], 0.0005 + 1e-9, "the messages")
        c.same(m, "table last_s (truth)", float(row["last_s"]), b["last"], 0.0005 + (SLACK + 1) / rate, "truth")
    parity = sum(1 for d in decoded if d["df"] in PARITY_ADDRESSED)
    repaired = sum(1 for m in msgs if m.get("corrected_bits", 0) > 0)
    want = f"{len(msgs)} frames ({repaired} repaired, {parity} addressed by parity), {len(pms)} aircraft"
    c.same(None, "table closing line", closing, want, who="pyModeS's counts")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    read = lambda name: open(os.path.join(folder, name)).read()
    meta = json.loads(read("traffic.sigmf-meta"))
    rate = meta["global"]["core:sample_rate"]
    lon, lat = meta["global"]["core:geolocation"]["coordinates"]
    msgs = [json.loads(line) for line in read("traffic.expected.jsonl").splitlines() if line.strip()]
    truth = [json.loads(line) for line in read("traffic.truth.jsonl").splitlines() if line.strip()]
    c = Checks()
    decoded, positions = check_messages(c, msgs, rate, pipe=True, receiver=(lat, lon))
    unresolved = [m for m, p in zip(msgs, positions) if "cpr" in m and p is None]
    c.count("every position resolved")
    for m in unresolved:
        c.fail(m, "a position frame without a position (the receiver is known)")
    sent = match_truth(c, msgs, truth)
    check_against_truth(c, msgs, sent)
    check_table(c, msgs, decoded, positions, sent, read("traffic.table.txt"), rate)
    extra = sum(1 for t in sent if t is not None and not t["decodable"])
    finish(c, f"{len(msgs)} messages, {len(truth)} frames sent, {extra} decoded beyond those required")


if __name__ == "__main__":
    main()
