"""Checks the ADS-B generator's frames with pyModeS, not with rfgraph's
decoder: the generator encodes with the decoder's own CRC, CPR and
altitude code, so a bug the two share would cancel out in any test that
decodes with rfgraph.

Usage: generator.py TRUTH.jsonl NAME RATE
  TRUTH.jsonl: the frames a scene sent (`SentFrame` as JSON lines: hex,
               kind, start, the position, CPR format and altitude it
               encodes, the sender's state), as `rfgraph gen adsb
               --truth` writes;
  NAME:        the scene, for the report;
  RATE:        its sample rate (starts are in samples).

For every frame: the downlink format its kind needs and the length of
that format; the parity against the intended address (a DF11/17 CRC
remainder of 0 and the address in the AA field; for DF0/4/5/20/21 a
remainder equal to the address); and every field, decoded by pyModeS,
equal to what the generator meant: type code and BDS register,
callsign (identification and the Comm-B BDS 2,0 register of DF20/21),
squawk, altitude, flight status (2 with an alert squawk, +1 on the
ground), capability (7 with an alert, else 4 on the ground, 5
airborne), vertical status, CPR format, velocity (ground speed and track
within the rounding of 1 kt components, vertical rate within 32 ft/min,
barometric), surface movement (the band holding the speed) and track
(within 360/256°), and positions: decoded locally with the sent
position as pyModeS's reference, and globally by pyModeS's pair
functions from the aircraft's previous frame of the other format, each
within half the CPR grid's step of the position sent. Each aircraft's
positions alternate even and odd.

Prints one summary line; exits 1 listing the disagreements.
"""

import json
import math
import sys

import pyModeS
import pyModeS.position
import pyModeS.util

from check import Checks, finish, header_bits
from example import (
    angle_diff,
    capability,
    cpr_half_steps,
    flight_status,
    movement_step,
    position_error,
)

# Downlink format and length (hex digits) of each kind.
FORMAT = {
    "identification": (17, 28),
    "airborne_position": (17, 28),
    "surface_position": (17, 28),
    "velocity": (17, 28),
    "all_call": (11, 14),
    "altitude": (4, 14),
    "identity": (5, 14),
    "comm_b_altitude": (20, 28),
    "comm_b_identity": (21, 28),
    "air_air": (0, 14),
}
CARRIES_ALTITUDE = ("airborne_position", "altitude", "comm_b_altitude", "air_air")
# Seconds an even/odd pair may span (DO-260B: 10 s airborne, 25 s on
# the surface).
PAIR_S = {"airborne_position": 10.0, "surface_position": 25.0}


def check_frame(c, t, d, rate, previous):
    m = {"hex": t["hex"]}
    s = t["sender"]
    kind = t["kind"]
    df, length = FORMAT[kind]
    c.same(m, "df", df, d.get("df"))
    c.same(m, "length", length, len(t["hex"]))
    rem = pyModeS.util.crc(t["hex"])
    if df in (11, 17):
        c.same(m, "crc", 0, rem)
        c.same(m, "address", t["icao"], int(d.get("icao") or "0", 16))
        c.same(m, "capability", capability(s), header_bits(t["hex"]))
    else:
        c.same(m, "parity address", t["icao"], rem)
    if df in (4, 5, 20, 21):
        # pyModeS's Comm-B decoder does not report FS: bits 6-8.
        got = d.get("flight_status") if df in (4, 5) else header_bits(t["hex"])
        c.same(m, "flight_status", flight_status(s), got)
    if df == 11:
        c.same(m, "capability (pyModeS)", capability(s), d.get("capability"))
    if df == 0:
        c.same(m, "vertical_status", "on-ground" if s["on_ground"] else "airborne", d.get("vertical_status"))
    if kind in CARRIES_ALTITUDE:
        c.same(m, "altitude", t["altitude_ft"], d.get("altitude"))
    elif t["altitude_ft"] is not None:
        c.fail(m, f"a {kind} frame with an altitude in the truth")
    if kind in ("identity", "comm_b_identity"):
        c.same(m, "squawk", s["squawk"], d.get("squawk"))
    if kind in ("identification", "comm_b_altitude", "comm_b_identity"):
        c.same(m, "callsign", s["callsign"].strip(), d.get("callsign"))
    if kind in ("comm_b_altitude", "comm_b_identity"):
        c.same(m, "bds", "2,0", d.get("bds"))
    if kind == "identification":
        c.same(m, "bds", "0,8", d.get("bds"))
    if kind == "velocity":
        c.same(m, "bds", "0,9", d.get("bds"))
        c.same(m, "subtype", 1, d.get("subtype"))
        gs, trk = s["ground_speed_kt"], s["track_deg"]
        # Components rounded to 1 kt, and pyModeS truncates the speed.
        got = d.get("groundspeed")
        c.count("groundspeed")
        if got is None or not (gs - 0.5 * math.sqrt(2) - 1 - 1e-9 < got <= gs + 0.5 * math.sqrt(2) + 1e-9):
            c.fail(m, f"groundspeed: sent {gs}, pyModeS {got}")
        if gs > 1.0:
            tol = math.degrees(math.asin(min(1.0, 0.5 * math.sqrt(2) / gs))) + 1e-9
            c.count("track")
            if d.get("track") is None or angle_diff(d["track"], trk) > tol:
                c.fail(m, f"track: sent {trk}, pyModeS {d.get('track')}")
        c.same(m, "vertical_rate", s["vertical_rate_fpm"], d.get("vertical_rate"), 32.5)
        c.same(m, "vr_source", "BARO", d.get("vr_source"))
    if kind in ("airborne_position", "surface_position"):
        surface = kind == "surface_position"
        c.same(m, "bds", "0,6" if surface else "0,5", d.get("bds"))
        c.same(m, "cpr_format", t["cpr_format"], d.get("cpr_format"))
        fmt = d.get("cpr_format")
        pos = tuple(t["position"])
        if surface:
            gs = s["ground_speed_kt"]
            got = d.get("groundspeed")
            c.count("movement")
            if got is None or not (got - 1e-9 <= gs < got + movement_step(got) + 1e-9):
                c.fail(m, f"movement: sent {gs} kt, pyModeS {got} (the band it falls in)")
            c.same(m, "track_status", 1, d.get("track_status"))
            c.count("surface track")
            if d.get("track") is None or angle_diff(d["track"], s["track_deg"]) > 360.0 / 256 + 1e-9:
                c.fail(m, f"surface track: sent {s['track_deg']}, pyModeS {d.get('track')}")
            r = pyModeS.decode(t["hex"], surface_ref=pos)
        else:
            r = pyModeS.decode(t["hex"], reference=pos)
        if r.get("latitude") is None:
            c.fail(m, "pyModeS cannot decode it locally")
        else:
            position_error(c, m, "position (local)", (r["latitude"], r["longitude"]), pos, surface, fmt)
        # Globally, with the aircraft's previous frame of the other format.
        other = previous.get((t["icao"], kind))
        if other is not None:
            c.count("alternation")
            if other[1].get("cpr_format") == fmt:
                c.fail(m, f"two {'odd' if fmt else 'even'} positions in a row")
        if other is not None and fmt is not None and (t["start"] - other[0]["start"]) / rate <= PAIR_S[kind]:
            o, od = other
            if od.get("cpr_format") != fmt:
                even, odd = (d, od) if fmt == 0 else (od, d)
                args = (even["cpr_lat"], even["cpr_lon"], odd["cpr_lat"], odd["cpr_lon"])
                if surface:
                    p = pyModeS.position.surface_position_pair(
                        *args, lat_ref=pos[0], lon_ref=pos[1], even_is_newer=fmt == 0)
                else:
                    p = pyModeS.position.airborne_position_pair(*args, even_is_newer=fmt == 0)
                if p is not None:
                    position_error(c, m, "position (pair)", p, pos, surface, fmt)
                else:
                    # Only frames whose latitudes, as encoded (within
                    # half a step of the true ones), lie in different
                    # longitude-zone counts may refuse to pair.
                    c.count("unpaired across a zone boundary")
                    nls = set()
                    for lat, f in ((pos[0], fmt), (o["position"][0], 1 - fmt)):
                        h = cpr_half_steps(lat, surface, f)[0]
                        nls |= {pyModeS.util.cprNL(lat - h), pyModeS.util.cprNL(lat + h)}
                    if len(nls) == 1:
                        c.fail(m, "pyModeS cannot pair it with the previous frame")
        previous[(t["icao"], kind)] = (t, d)
    elif t["position"] is not None or t["cpr_format"] is not None:
        c.fail(m, f"a {kind} frame with a position in the truth")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, name, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
    truth = [json.loads(line) for line in open(path) if line.strip()]
    c = Checks()
    previous = {}
    for t in truth:
        check_frame(c, t, pyModeS.decode(t["hex"]), rate, previous)
    kinds = sorted({t["kind"] for t in truth})
    finish(c, f"{name}: {len(truth)} frames ({', '.join(kinds)})")


if __name__ == "__main__":
    main()
