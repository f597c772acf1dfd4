"""The order parser on a large generated corpus, to compare two versions of the order language.

Generates mails (program lines, standing orders, FIRE orders, every option card's orders written many
ways, prose, near misses) for robots holding various option cards, reads each with whichever ``referee``
is on PYTHONPATH, and writes the results as JSON lines; ``--compare`` lists the mails whose results differ
between two such files, grouped by the first line that differs.

    PYTHONPATH=/tmp/old .venv/bin/python benchmarks/order_corpus.py --dump /tmp/old.jsonl
    PYTHONPATH=$PWD .venv/bin/python benchmarks/order_corpus.py --dump /tmp/new.jsonl
    .venv/bin/python benchmarks/order_corpus.py --compare /tmp/old.jsonl /tmp/new.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from typing import Any

HAND = ["FWD1 500", "FWD2 670", "RT90 80", "LF90 90", "UTRN 50", "RVS1 430", "FWD3 800", "FWD1 490", "RT90 100"]
PROGRAMS = [["1: FWD1 500", "2: FWD2 670", "3: FWD3 800", "4: RVS1 430", "5: FWD1 490"],
            ["FWD2 670, RT90 80, FWD1, FWD1, UTRN 50"], ["1 2 3 4 5"], []]
CARDS = ["Ablative Coat", "Abort Switch", "Brakes", "Circuit Breaker", "Conditional Program", "Crab Legs",
         "Double-Barreled Laser", "Dual Processor", "Extra Memory", "Fire Control", "Flywheel", "Fourth Gear",
         "Gyroscopic Stabilizer", "High-Power Laser", "Mechanical Arm", "Mini Howitzer", "Power-Down Shield",
         "Pressor Beam", "Radio Control", "Ramming Gear", "Rear-Firing Laser", "Recompile", "Reverse Gears",
         "Scrambler", "Superior Archive", "Tractor Beam", "Shield"]
REGS = ["1", "2", "3", "4", "5", "2, 4", "1-3", "b and d", "registers 2-4", "REG 5", "c", "1 and 5", "6", "0", "5-2"]
CARDREFS = ["RT90 100", "R 80", "U 50", "LF90 90", "FWD1 490", "M2 490", "LT 90", "UTRN 50", "FWD2 760", "BANANA"]
CONDS = ["ROBOT AHEAD", "WALL AHEAD", "NOT FACING W", "DAMAGE >= 3", "DAMAGE>=2", "AT R5C4", "FACING E", "RAINING",
         "NOT ROBOT AHEAD"]
TEMPLATES = [
    "BRAKES {r}", "brakes in {r}", "Brake {r}", "BRAKES", "FOURTH GEAR {r}", "4th gear: {r}", "Fourth-gear {r}",
    "REVERSE GEARS {r}", "reverse {r}", "Reverse gear {r}", "CRAB {r}: {side}", "crab legs {r} {side}",
    "Crab-legs {r} = {side}", "DUAL {r1}: {card}", "Dual processor {r1} with {card}", "dual {r1} {card}",
    "CONDITIONAL {r1}: {card} IF {cond}", "cond {r1}: {card} when {cond}", "Conditional program {r1} {card} if {cond}",
    "FIRE CONTROL {r}: {fc}", "FIRE CONTROL: {fc}", "fire control {fc} {scope}", "FIRE-CONTROL {r} {fc} {scope}",
    "FLYWHEEL: {card}", "flywheel keep {card}", "Fly-wheel {card}", "ABORT {r1}", "abort switch never",
    "ABORT {r1} {scope}", "abort at register {r1}", "abort: no", "GYRO {onoff}", "Gyroscopic stabilizer: {onoff}",
    "gyroscope {onoff} {scope}", "GYRO STABILISER {onoff}", "CIRCUIT BREAKER {onoff}", "circuit {onoff}",
    "Circuit-breaker: {onoff}", "RECOMPILE", "recompile my hand please", "re-compile", "SACRIFICE ORDER: {cards}",
    "sacrifice order {cards}", "FIRE {r}: {weapon}", "FIRE ALL: {weapon}", "fire {r} with {weapon}", "FIRE {weapon}",
    "SACRIFICE AT HP {hp}", "SACRIFICE NEVER", "REBOOT", "NO REBOOT", "POWER DOWN", "ON TWO WRENCHES: {wrench}",
    "REENTER FACING {dir}", "HELP", "STATUS", "CARDS", "CHOP SHOP: OPTION", "RESET EXCHANGE {r1}: FWD2 700",
    "RESET CHOOSE: RANDOM", "Thanks!", "See you next turn.", "Reverse psychology will not help you.",
    "Brakes are for cowards", "Gyro is great", "I might reboot", "2 more flags to go.", "A. Miller",
    "{n}: {card}", "Fourth time lucky", "Crab cakes tonight?", "Dual citizenship", "Circuit training at 6",
    "Abort, abort!", "Recompile? no", "Cond. apply", "FIRE CONTROL", "FIRE", "FLYWHEEL", "Pressor beam was fun",
    "Mini howitzer {r}", "Tractor beam: {r}", "USE BRAKES IN {r}", "Use your head", "TAKE OPTION",
    "KEEP {card} ON FLYWHEEL",
]
FILL = {
    "side": ["LEFT", "right", "L", "R", "up"], "card": CARDREFS, "cond": CONDS,
    "fc": ["OPTION", "damage", "REGISTER", "lock", "options", "nothing"],
    "scope": ["THIS TURN", "EVERY TURN", "ALWAYS", "STANDING", "until changed", ""],
    "onoff": ["ON", "off", "YES", "no", "TRUE", "false", "ACTIVE", "inactive", "maybe"],
    "cards": ["BRAKES, SHIELD", "pressor, brakes", "gyro then crab", "laser cannon", "Brakes and Fourth Gear"],
    "weapon": ["MAIN LASER", "laser", "PRESSOR", "Pressor Beam", "mini howitzer", "TRACTOR", "Radio Control",
               "SCRAMBLER", "rear firing laser", "main"],
    "hp": ["1", "4", "10", "12"], "wrench": ["REPAIR", "OPTION", "repairs"], "dir": ["N", "E", "S", "W", "up"],
    "n": ["1", "2", "3", "4", "5"],
}


def mails(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        held = rng.choice([[], CARDS, rng.sample(CARDS, rng.randint(1, 6)), [c.lower() for c in rng.sample(CARDS, 3)]])
        lines = list(rng.choice(PROGRAMS))
        for _ in range(rng.randint(1, 3)):
            template = rng.choice(TEMPLATES)
            values = {k: rng.choice(v) for k, v in FILL.items()}
            values["r"] = rng.choice(REGS)
            values["r1"] = rng.choice([*REGS[:5], "b", "e", "register 3"])
            line = " ".join(template.format(**values).split())
            lines.insert(rng.randint(0, len(lines)), rng.choice([line, line.upper(), line.lower()]))
        out.append({"id": i, "options": held, "strict": rng.random() < 0.2, "text": "\n".join(lines)})
    return out


def result_of(mail: dict[str, Any]) -> dict[str, Any]:
    from referee.engine import parse_card
    from referee.orders import OrderContext, parse_orders

    ctx = OrderContext(hand=[parse_card(c) for c in HAND], options=mail["options"])
    r = parse_orders(mail["text"], ctx, strict=mail["strict"])
    return {"program": [str(c) for c in r.program] if r.program else None,
            "standing": r.standing.to_dict(), "options": r.option_orders, "commands": r.commands,
            "errors": [[e.line, e.message] for e in r.errors], "ignored": [list(x) for x in r.ignored]}


def dump(path: str, count: int, seed: int) -> None:
    with open(path, "w") as f:
        for mail in mails(count, seed):
            f.write(json.dumps({**mail, "result": result_of(mail)}, sort_keys=True) + "\n")


def compare(old_path: str, new_path: str, show: int) -> int:
    with open(old_path) as f:
        old = [json.loads(line) for line in f]
    with open(new_path) as f:
        new = [json.loads(line) for line in f]
    assert [m["text"] for m in old] == [m["text"] for m in new], "not the same corpus"
    differ = [(a, b) for a, b in zip(old, new, strict=True) if a["result"] != b["result"]]
    print(f"{len(old)} mails, {len(old) - len(differ)} read the same, {len(differ)} differently")
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for a, b in differ:
        kind = _kind(a, b)
        kinds[kind] += 1
        reasons[_reason(kind)] += 1
    print("by reason (issue 30's option-order defects; 'unexplained' must be 0):")
    for reason, n in reasons.most_common():
        print(f"{n:6}  {reason}")
    print("by the first line read differently:")
    for kind, n in kinds.most_common(show or 40):
        print(f"{n:6}  {kind}")
    for a, b in differ[:show]:
        print("---", a["options"], "\n" + a["text"], "\nOLD", a["result"], "\nNEW", b["result"])
    return 0


def _kind(a: dict[str, Any], b: dict[str, Any]) -> str:
    """The first line whose reading differs (errors and skipped lines by line number), as a pattern."""
    lines = a["text"].split("\n")

    def per_line(r: dict[str, Any]) -> dict[int, str]:
        out = {n: f"error: {m}" for n, m in r["errors"] if n}
        out.update({n: "skipped" for n, _ in r["ignored"]})
        return out

    pa, pb = per_line(a["result"]), per_line(b["result"])
    for n in range(1, len(lines) + 1):
        if pa.get(n) != pb.get(n):
            words = " ".join(lines[n - 1].upper().split()[:2])
            before, after = pa.get(n, "read"), pb.get(n, "read")
            same = next((i for i, (x, y) in enumerate(zip(before, after, strict=False)) if x != y),
                        min(len(before), len(after)))
            cut = max(0, min(same, before.rfind(" ", 0, same) + 1)) if same > 40 else 0
            return f"{words!r}: {_short(before[cut:])} -> {_short(after[cut:])}"
    return "orders read differently: " + ", ".join(k for k in a["result"] if a["result"][k] != b["result"][k])


#: the intended changes, each as a pattern of the difference it makes
REASONS = (
    (r"acts on a (?:Move|Back)|pairs a Move 2", "defect 7: an option order checked against the same mail's program"),
    (r"not a weapon|\(it has: [^)]*\) -> .*\)|^'FIRE[^']*': (?!error:|read|skipped)",
     "defect 4: FIRE names weapons only (errors list the robot's weapons, not all its cards)"),
    (r"its number in your hand", "defect 6: option orders take hand positions (the error says so)"),
    (r"-> error: this .* order is not written as", "defect 5: a line led by a held card's words (CRAB-LEGS) is an "
                                                  "order or an error"),
    (r"^'(?:USE|KEEP|TAKE|DRAW|MINI|TRACTOR|PRESSOR)[^']*': (?:skipped|error: I could not read)",
     "defect 5: a line naming an option order (PRESSOR BEAM 2, USE BRAKES IN 2, KEEP .. ON FLYWHEEL, TAKE OPTION) is "
     "that order, or an error saying why"),
    (r"is already in re.* -> (?:read|error: .* is in your program)",
     "knock-on: a new error (or order) elsewhere in the mail leaves the program rules unchecked, or names the "
     "card on another line"),
)


def _reason(kind: str) -> str:
    import re

    return next((why for pattern, why in REASONS if re.search(pattern, kind)), "unexplained")


def _short(text: str) -> str:
    return text if len(text) < 60 else text[:57] + "..."


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump", metavar="FILE")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--show", type=int, default=0, help="print this many differing mails in full")
    args = ap.parse_args()
    if args.dump:
        dump(args.dump, args.count, args.seed)
        return 0
    if args.compare:
        return compare(*args.compare, args.show)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
