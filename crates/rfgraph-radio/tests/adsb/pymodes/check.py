"""Cross-checks rfgraph's decoded Mode S messages against pyModeS.

Reads JSON lines (what `rfgraph adsb --json` prints) from the file named
by argv[1], with the sample rate in argv[2] (and `pipe` in argv[3] when
the samples are a continuous recording), decodes every frame's hex
with pyModeS, and compares every field rfgraph decoded: address, downlink
format, capability, flight status, callsign, altitude, squawk, velocity
(ground speed, track, airspeed, heading, vertical rate, GNSS minus baro),
surface movement and track, and positions:

- each position rfgraph resolved is decoded again by pyModeS locally,
  with rfgraph's position as the reference: the CPR bits must put it
  within 1 m of where rfgraph says;
- each position rfgraph decoded from an even/odd pair is decoded again
  by pyModeS's pair function from the same two frames (the last frame of
  the other format from that aircraft, as rfgraph pairs): within 1 m;
- with `pipe`, pyModeS's own stream decoder (PipeDecoder, which pairs
  frames itself and checks altitude and speed against time) must agree
  within 10 m wherever both have a position, and have one for most of
  rfgraph's. Not for a collage of snippets such as dump1090's modes1,
  whose sample clock is not air time: its plausibility checks rightly
  refuse to pair frames minutes apart in the air and 1 ms apart there.

Prints one summary line; exits 1 listing the disagreements.
"""

import json
import math
import sys

import pyModeS
import pyModeS.position


def dist_m(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def main():
    path, rate = sys.argv[1], float(sys.argv[2])
    use_pipe = len(sys.argv) > 3 and sys.argv[3] == "pipe"
    msgs = [json.loads(line) for line in open(path) if line.strip()]
    errors = []
    compared = {}

    def same(m, field, ours, theirs, tol=0.0):
        compared[field] = compared.get(field, 0) + 1
        ok = (
            theirs is not None
            and (ours == theirs if tol == 0.0 else abs(ours - theirs) <= tol)
        )
        if not ok:
            errors.append(f"{m['hex']} {field}: rfgraph {ours!r}, pyModeS {theirs!r}")

    for m in msgs:
        d = pyModeS.decode(m["hex"])
        same(m, "df", m["df"], d.get("df"))
        same(m, "icao", m["icao"], (d.get("icao") or "").lower())
        if m["df"] == 17 and m.get("corrected_bits", 0) == 0:
            same(m, "crc", True, d.get("crc_valid"))
        for ours, theirs in [
            ("callsign", "callsign"),
            ("altitude_ft", "altitude"),
            ("squawk", "squawk"),
            ("vertical_rate_fpm", "vertical_rate"),
            ("airspeed_kt", "airspeed"),
            ("geo_minus_baro_ft", "geo_minus_baro"),
            ("type_code", "typecode"),
        ]:
            if ours in m:
                same(m, ours, m[ours], d.get(theirs))
        if "capability" in m and m["df"] == 11:
            same(m, "capability", m["capability"], d.get("capability"))
        if "flight_status" in m and m["df"] in (4, 5):
            same(m, "flight_status", m["flight_status"], d.get("flight_status"))
        if "airspeed_type" in m:
            same(m, "airspeed_type", m["airspeed_type"], d.get("airspeed_type"))
        if "vertical_rate_source" in m:
            same(m, "vertical_rate_source", m["vertical_rate_source"], d.get("vr_source"))
        if "heading_deg" in m:
            same(m, "heading_deg", m["heading_deg"], d.get("heading"), 1e-6)
        if "track_deg" in m:
            same(m, "track_deg", m["track_deg"], d.get("track"), 1e-6)
        if "ground_speed_kt" in m:
            theirs = d.get("groundspeed")
            if m.get("kind") == "velocity":
                # pyModeS truncates the speed to whole knots.
                theirs = None if theirs is None else float(theirs)
                same(m, "ground_speed_kt", math.floor(m["ground_speed_kt"] + 1e-9), theirs)
            else:
                same(m, "ground_speed_kt", m["ground_speed_kt"], theirs, 1e-9)
        if "cpr" in m:
            same(m, "cpr", (m["cpr"]["format"], m["cpr"]["lat"], m["cpr"]["lon"]),
                 (d.get("cpr_format"), d.get("cpr_lat"), d.get("cpr_lon")))
        if "lat" in m:
            ref = (m["lat"], m["lon"])
            if m.get("kind") == "surface_position":
                r = pyModeS.decode(m["hex"], surface_ref=ref)
            else:
                r = pyModeS.decode(m["hex"], reference=ref)
            if r.get("latitude") is None:
                errors.append(f"{m['hex']} position: pyModeS cannot decode it at {ref}")
            else:
                same(m, "position (local)", 0.0, dist_m(ref, (r["latitude"], r["longitude"])), 1.0)

    # The pairs rfgraph decoded, again by pyModeS's pair functions.
    last = {}
    for m in msgs:
        if "cpr" not in m:
            continue
        surface = m.get("kind") == "surface_position"
        c = m["cpr"]
        other = last.get((m["icao"], surface, 1 - c["format"]))
        last[(m["icao"], surface, c["format"])] = c
        if m.get("position_source") != "global":
            continue
        if other is None:
            errors.append(f"{m['hex']}: a global position without a partner frame")
            continue
        even, odd = (c, other) if c["format"] == 0 else (other, c)
        args = (even["lat"], even["lon"], odd["lat"], odd["lon"])
        if surface:
            r = pyModeS.position.surface_position_pair(
                *args, lat_ref=m["lat"], lon_ref=m["lon"], even_is_newer=c["format"] == 0)
        else:
            r = pyModeS.position.airborne_position_pair(*args, even_is_newer=c["format"] == 0)
        if r is None:
            errors.append(f"{m['hex']}: pyModeS cannot decode the pair rfgraph decoded")
        else:
            same(m, "position (pair)", 0.0, dist_m((m["lat"], m["lon"]), r), 1.0)

    # pyModeS's own pairing, over the whole stream.
    ours_pos = both = 0
    pipe = []
    if use_pipe:
        pipe = pyModeS.decode([m["hex"] for m in msgs], timestamps=[m["sample"] / rate for m in msgs])
    for m, r in zip(msgs, pipe):
        if "lat" not in m or m.get("kind") == "surface_position":
            continue
        ours_pos += 1
        if r.get("latitude") is not None:
            both += 1
            same(m, "position (pyModeS pairs)", 0.0,
                 dist_m((m["lat"], m["lon"]), (r["latitude"], r["longitude"])), 10.0)
    if ours_pos and both < 0.5 * ours_pos:
        errors.append(f"pyModeS resolved only {both} of rfgraph's {ours_pos} airborne positions")

    print(f"pyModeS {pyModeS.__version__}: {len(msgs)} messages, "
          + ", ".join(f"{k} {v}" for k, v in sorted(compared.items()))
          + f"; {both}/{ours_pos} positions paired by pyModeS; {len(errors)} disagreements")
    if errors:
        print("\n".join(errors[:50]))
        sys.exit(1)


main()
