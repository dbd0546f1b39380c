"""Cross-checks rfgraph's decoded Mode S messages against pyModeS.

As a program: reads JSON lines (what `rfgraph adsb --json` prints) from
the file named by argv[1], with the sample rate in argv[2], then `pipe`
when the samples are a continuous recording and `receiver=LAT,LON` when
rfgraph was given the receiver's position; checks them with
`check_messages`, prints one summary line and exits 1 listing the
disagreements. `example.py` and `generator.py` import it.

`check_messages` decodes every frame's hex with pyModeS and compares
every field rfgraph decoded: the parity (a DF11/17/18 frame's CRC
remainder is 0, or for DF11 an interrogator code below 80; a DF0/4/5/16/
20/21 frame's remainder is the address rfgraph gives), address, downlink
format, kind, type code, capability, category, flight status, callsign,
altitude and its type, squawk, velocity (ground speed, track, airspeed,
heading, vertical rate and its source, GNSS minus baro), surface movement
and track, the raw CPR fields, and positions:

- which frames get a position, and how (`position_source`), by the rule
  rfgraph documents (`modes::tracker`), with pyModeS resolving each from
  its own earlier answers, not from rfgraph's (see `check_positions`):
  each must land within 5 cm of rfgraph's;
- with `pipe`, pyModeS's own stream decoder (PipeDecoder, which pairs
  frames itself and checks altitude and speed against time) must agree
  within 5 cm wherever both have a position (it gives both frames of a
  pair the newer one's position, so that of a later frame may be the
  one it matches), and have one for most of rfgraph's. Not for a collage
  of snippets such as dump1090's modes1, whose sample clock is not air
  time: its plausibility checks rightly refuse to pair frames minutes
  apart in the air and 1 ms apart there.
"""

import json
import math
import sys

import pyModeS
import pyModeS.position
import pyModeS.util

# The downlink formats whose parity is overlaid with the address.
PARITY_ADDRESSED = (0, 4, 5, 16, 20, 21)

# rfgraph's `kind` for each downlink format (DF17/18 by BDS register).
KIND_BY_DF = {
    0: "air_air",
    4: "altitude",
    5: "identity",
    11: "all_call",
    16: "long_air_air",
    20: "comm_b_altitude",
    21: "comm_b_identity",
}
KIND_BY_BDS = {
    "0,8": "identification",
    "0,6": "surface_position",
    "0,5": "airborne_position",
    "0,9": "velocity",
}


def dist_m(a, b):
    """Great-circle distance between two (lat, lon) in metres."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


class Checks:
    """Counts what was compared and collects the disagreements."""

    def __init__(self):
        self.errors = []
        self.compared = {}

    def count(self, field):
        self.compared[field] = self.compared.get(field, 0) + 1

    def fail(self, m, what):
        self.errors.append(f"{m['hex'] if m else '-'} {what}")

    def same(self, m, field, ours, theirs, tol=0.0, who="pyModeS", optional=False):
        """`ours` equals `theirs` (within `tol`); both must be there, or,
        when `optional`, both may be missing (None)."""
        self.count(field)
        if optional and ours is None and theirs is None:
            return
        ok = theirs is not None and ours is not None and (
            ours == theirs if tol == 0.0 else abs(ours - theirs) <= tol
        )
        if not ok:
            self.fail(m, f"{field}: rfgraph {ours!r}, {who} {theirs!r}")

    def summary(self, what):
        return (
            f"pyModeS {pyModeS.__version__}: {what}: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.compared.items()))
            + f"; {len(self.errors)} disagreements"
        )


def header_bits(hexstr):
    """Bits 6-8 of a frame: CA (DF11/17), CF (DF18), FS (DF4/5/20/21)."""
    return int(hexstr[:2], 16) & 7


def check_fields(c, m, d):
    """Compares the fields of one rfgraph message `m` with pyModeS's
    decoding `d` of the same hex."""
    df = d.get("df")
    c.same(m, "df", m["df"], df)
    c.same(m, "icao", m["icao"], (d.get("icao") or "").lower())
    # Parity: pyModeS's CRC remainder over the whole frame.
    rem = pyModeS.util.crc(m["hex"])
    if df in (17, 18):
        c.same(m, "crc", 0, rem)
    elif df == 11:
        # Zero, or an interrogator code (CL and IC) in the low 7 bits.
        c.count("crc")
        if rem >= 80:
            c.fail(m, f"crc: DF11 remainder {rem:06x}")
    elif df in PARITY_ADDRESSED:
        c.same(m, "crc", int(m["icao"], 16), rem)
    kind = KIND_BY_DF.get(df) or KIND_BY_BDS.get(d.get("bds"))
    if kind is not None or "kind" in m:
        c.same(m, "kind", m.get("kind"), kind)
    for ours, theirs in [
        ("callsign", "callsign"),
        ("altitude_ft", "altitude"),
        ("squawk", "squawk"),
        ("vertical_rate_fpm", "vertical_rate"),
        ("airspeed_kt", "airspeed"),
        ("geo_minus_baro_ft", "geo_minus_baro"),
        ("type_code", "typecode"),
        ("category", "category"),
    ]:
        if ours in m:
            c.same(m, ours, m[ours], d.get(theirs))
        elif d.get(theirs) is not None and df not in (20, 21):
            # Every field pyModeS finds, rfgraph must, but for what it
            # infers from DF20/21's Comm-B registers, which rfgraph does
            # not interpret.
            c.fail(m, f"{ours}: rfgraph none, pyModeS {d.get(theirs)!r}")
    if "altitude_ft" in m:
        tc = d.get("typecode")
        want = "gnss" if tc is not None and 20 <= tc <= 22 else "baro"
        c.same(m, "altitude_type", m.get("altitude_type"), want)
    if df == 11:
        c.same(m, "capability", m.get("capability"), d.get("capability"))
    elif df in (17, 18):
        # pyModeS does not report a DF17's CA.
        c.same(m, "capability", m.get("capability"), header_bits(m["hex"]))
    if df in (4, 5):
        c.same(m, "flight_status", m.get("flight_status"), d.get("flight_status"))
    elif df in (20, 21):
        # pyModeS's Comm-B decoder does not report it: bits 6-8, as in
        # DF4/5.
        c.same(m, "flight_status", m.get("flight_status"), header_bits(m["hex"]))
    if "airspeed_type" in m:
        c.same(m, "airspeed_type", m["airspeed_type"], d.get("airspeed_type"))
    if "vertical_rate_source" in m:
        c.same(m, "vertical_rate_source", m["vertical_rate_source"], d.get("vr_source"))
    if "heading_deg" in m:
        c.same(m, "heading_deg", m["heading_deg"], d.get("heading"), 1e-6)
    comm_b = df in (20, 21)
    if "track_deg" in m:
        c.same(m, "track_deg", m["track_deg"], d.get("track"), 1e-6)
    elif d.get("track") is not None and not comm_b:
        c.fail(m, f"track_deg: rfgraph none, pyModeS {d['track']!r}")
    if "ground_speed_kt" in m or (d.get("groundspeed") is not None and not comm_b):
        theirs = d.get("groundspeed")
        ours = m.get("ground_speed_kt")
        if m.get("kind") == "velocity" and ours is not None:
            # pyModeS truncates the speed to whole knots.
            theirs = None if theirs is None else float(theirs)
            c.same(m, "ground_speed_kt", math.floor(ours + 1e-9), theirs)
        else:
            c.same(m, "ground_speed_kt", ours, theirs, 1e-9)
    if "cpr" in m or d.get("cpr_format") is not None:
        cpr = m.get("cpr") or {}
        c.same(
            m,
            "cpr",
            (cpr.get("format"), cpr.get("lat"), cpr.get("lon")),
            (d.get("cpr_format"), d.get("cpr_lat"), d.get("cpr_lon")),
        )


# The tracker's documented rule (`modes::tracker`): seconds an even/odd
# pair may span, airborne and on the surface; seconds an aircraft's own
# position serves as the reference for local decoding.
PAIR_S = {False: 10.0, True: 25.0}
LOCAL_S = 60.0


def resolve(d, surface, ref):
    """pyModeS's local decoding of `d` against `ref`."""
    if surface:
        return pyModeS.position.surface_position_with_ref(
            d["cpr_format"], d["cpr_lat"], d["cpr_lon"], ref[0], ref[1])
    return pyModeS.position.airborne_position_with_ref(
        d["cpr_format"], d["cpr_lat"], d["cpr_lon"], ref[0], ref[1])


def check_positions(c, msgs, decoded, rate, receiver=None):
    """Which position each CPR frame gets, and how, by the rule
    `rfgraph adsb` documents (`modes::tracker`), with pyModeS doing the
    decoding from its own earlier answers: an even/odd pair of the same
    kind at most 10 s apart (25 s on the surface) decodes globally
    (pyModeS's pair functions; a surface pair's quadrant chosen by the
    aircraft's position or else the receiver), unless that lands further
    from the aircraft's last position than 1 km plus Mach 3 for the time
    between (then no position, and the last one is forgotten); else a
    local decoding against the aircraft's own position of the last 60 s,
    else against the receiver. rfgraph's source must be that one and its
    position within 5 cm of pyModeS's. Returns pyModeS's position for
    each message (None for the others)."""
    last_frame = {}
    last_pos = {}
    found = []
    for m, d in zip(msgs, decoded):
        if d.get("cpr_format") is None:
            found.append(None)
            if "lat" in m:
                c.fail(m, "a position from a frame without CPR")
            continue
        surface = d.get("bds") == "0,6"
        fmt = d["cpr_format"]
        icao = d["icao"].lower()
        at = m["sample"] / rate
        other = last_frame.get((icao, 1 - fmt))
        last_frame[(icao, fmt)] = (d, at, surface)
        last = last_pos.get(icao)
        own = last[0] if last is not None and at - last[1] <= LOCAL_S else None
        want = None
        refused = False
        if other is not None and other[2] == surface and at - other[1] <= PAIR_S[surface]:
            od = other[0]
            even, odd = (d, od) if fmt == 0 else (od, d)
            args = (even["cpr_lat"], even["cpr_lon"], odd["cpr_lat"], odd["cpr_lon"])
            p = None
            if not surface:
                p = pyModeS.position.airborne_position_pair(*args, even_is_newer=fmt == 0)
            elif (own or receiver) is not None:
                ref = own or receiver
                p = pyModeS.position.surface_position_pair(
                    *args, lat_ref=ref[0], lon_ref=ref[1], even_is_newer=fmt == 0)
            if p is not None:
                if last is not None and dist_m(last[0], p) > 1000.0 + 1000.0 * abs(at - last[1]):
                    refused = True
                    del last_pos[icao]
                else:
                    want = ("global", p)
        if want is None and not refused:
            if own is not None:
                want = ("local_aircraft", resolve(d, surface, own))
            elif receiver is not None:
                want = ("local_receiver", resolve(d, surface, receiver))
        c.count("position source")
        source = m.get("position_source")
        if want is None:
            if source is not None or "lat" in m:
                c.fail(m, f"position: rfgraph {source}, none by the rule")
            found.append(None)
            continue
        if source != want[0] or "lat" not in m:
            c.fail(m, f"position source: rfgraph {source}, by the rule {want[0]}")
        else:
            field = "position (pair)" if want[0] == "global" else f"position ({want[0]})"
            c.same(m, field, 0.0, dist_m((m["lat"], m["lon"]), want[1]), 0.05)
        last_pos[icao] = (want[1], at)
        found.append(want[1])
    return found


def check_pipe(c, msgs, rate):
    """pyModeS's own pairing over the whole stream (see the module doc).
    Its PipeDecoder gives both frames of a pair the newer one's position
    (it fills the older frame's answer in afterwards), so each of its
    positions must be rfgraph's for that frame or for a later frame of
    the same aircraft and kind, within 5 cm."""
    pipe = pyModeS.decode([m["hex"] for m in msgs], timestamps=[m["sample"] / rate for m in msgs])
    ours = both = 0
    for i, (m, r) in enumerate(zip(msgs, pipe)):
        if "lat" not in m or m.get("kind") == "surface_position":
            continue
        ours += 1
        if r.get("latitude") is None:
            continue
        both += 1
        theirs = (r["latitude"], r["longitude"])
        candidates = [m] + [
            n for n in msgs[i + 1:]
            if n["icao"] == m["icao"] and n.get("kind") == m.get("kind") and "lat" in n
            and (n["sample"] - m["sample"]) / rate <= PAIR_S[False]
        ]
        best = min(dist_m((n["lat"], n["lon"]), theirs) for n in candidates)
        c.same(m, "position (pyModeS pairs)", 0.0, best, 0.05)
    if ours and both < 0.5 * ours:
        c.fail(None, f"pyModeS resolved only {both} of rfgraph's {ours} airborne positions")


def check_messages(c, msgs, rate, pipe=False, receiver=None):
    """All of the above over rfgraph's messages; returns pyModeS's
    decoding of each and its position for each."""
    decoded = [pyModeS.decode(m["hex"]) for m in msgs]
    for m, d in zip(msgs, decoded):
        check_fields(c, m, d)
    positions = check_positions(c, msgs, decoded, rate, receiver)
    if pipe:
        check_pipe(c, msgs, rate)
    return decoded, positions


def finish(c, what):
    """Prints the summary and the disagreements; exits 1 if there are any."""
    print(c.summary(what))
    if c.errors:
        print("\n".join(c.errors[:80]))
        sys.exit(1)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check.py MESSAGES.jsonl RATE [pipe] [receiver=LAT,LON]")
    path, rate = sys.argv[1], float(sys.argv[2])
    use_pipe = "pipe" in sys.argv[3:]
    receiver = None
    for arg in sys.argv[3:]:
        if arg.startswith("receiver="):
            receiver = tuple(float(v) for v in arg[len("receiver="):].split(","))
    msgs = [json.loads(line) for line in open(path) if line.strip()]
    c = Checks()
    check_messages(c, msgs, rate, pipe=use_pipe, receiver=receiver)
    finish(c, f"{len(msgs)} messages")


if __name__ == "__main__":
    main()
