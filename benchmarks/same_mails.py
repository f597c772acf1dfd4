"""Every queued mail of a fixed set of games, written out to compare two versions of the referee byte for byte.

    .venv/bin/python benchmarks/same_mails.py --out new.pickle                       # this checkout
    .venv/bin/python benchmarks/same_mails.py --repo /tmp/base --out old.pickle      # another checkout's code
    .venv/bin/python benchmarks/same_mails.py --compare old.pickle new.pickle

Not a benchmark: a check for changes that must not change what is sent (the speed work on the turn mails).
Plays, with fixed seeds, a fixed clock, a fixed installation salt and fixed player secrets, on SQLite:

- four-player games on sprint resolved by ``referee tick`` (with the players' reply addresses), players
  and the referee with non-ASCII names, one player in another time zone;
- a three-player game on another course, its robots given option cards;
- a game held for review (the GM publishes), a turn re-run by the GM (a correction), a game won (the
  game-over mails), and each game's start mails.

Then dumps every outbox row, every column (raw bytes included), in id order. ``--compare`` says where two
dumps differ (and exits 1), or that they are the same.
"""

from __future__ import annotations

import argparse
import pickle
import random
import secrets
import sys
import tempfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
NAMES = {"Twonky": "Zoë Ångström", "Hammer": "Bob", "Zoom": "Ćarol «C» Ünal", "Spin": "Dave O'Neil"}


def fixed_randomness() -> None:
    rng = random.Random("same-mails")
    secrets.choice = rng.choice  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: rng.randbytes(n).hex()  # type: ignore[assignment]


def play(tmp: Path) -> list[dict[str, Any]]:
    from sqlalchemy import select

    from referee import games as g
    from referee.boards import load_board
    from referee.common.config import Settings
    from referee.cron.tick import tick
    from referee.reports import enqueue_start_mails, enqueue_turn_mails
    from referee.store import Store
    from referee.store.mail import set_state
    from referee.store.mail_models import OutgoingMail

    sys.path.insert(1, str(Path(__file__).parent))  # after the checkout compared, if --repo put one first
    from bench_scale import send_all_programs  # every waiting player sends the first cards of the hand

    url = f"sqlite:///{tmp / 'same.sqlite3'}"
    settings = Settings(database_url=url, referee_address="referee@example.test", referee_name="Référé RoboRally",
                        gm_address="gm@example.test", gm_secret="same", signing_key="same-key", transport="maildir",
                        maildir_in=str(tmp / "in"), maildir_out=str(tmp / "out"), lock_file=str(tmp / "tick.lock"),
                        tick_interval=300)
    store = Store(url)
    store.upgrade()
    with store.write() as s:
        set_state(s, "installation", {"salt": "0123456789abcdef"}, now=T0)

    def new(code: str, course: str, robots: list[str], **kw: Any) -> None:
        with store.write() as s:
            game = g.create_game(s, course=course, code=code, seed=f"same-{code}", deadline_seconds=86400,
                                 reminder_seconds=0, settle_seconds=0, actor="same", now=T0, **kw)
            for robot in robots:
                g.add_player(s, game, email=f"{robot.lower()}.{code.lower()}@example.test", robot=robot,
                             name=NAMES.get(robot, robot), now=T0)
            g.start_game(s, game, actor="same", now=T0)
            if robots:
                game.players[0].timezone = "Europe/Berlin"
            enqueue_start_mails(s, settings, game, now=T0)

    def programs(codes: list[str], now: datetime) -> None:
        send_all_programs(store, codes, now)

    four = ["Twonky", "Hammer", "Zoom", "Spin"]
    ticked = ["A-1", "A-2", "B-1", "H-1"]
    new("A-1", "sprint", four)
    new("A-2", "sprint", four[:2], gm_address="gm-two@example.test")
    new("B-1", "factory", four[:3])
    new("H-1", "sprint", four[:3], hold_for_review=True)
    with store.write() as s:  # option cards for B-1's robots
        game = g.get_game(s, "B-1")
        robots = g.robots_of(g.open_turn(s, game))
        robots[0] = replace(robots[0], options=["Brakes", "Fourth Gear"])
        robots[1] = replace(robots[1], options=["Crab Legs"])
        g.replace_open_state(s, game, robots, actor="same", now=T0)
    now = T0 + timedelta(minutes=5)
    tick(settings, now=now, store=store)
    for _ in range(4):
        now += timedelta(minutes=5)
        programs(ticked, now - timedelta(minutes=1))
        tick(settings, now=now, store=store)
        with store.write() as s:
            game = g.get_game(s, "H-1")
            last = g.last_resolved(s, game)
            if last is not None and last.published_at is None:
                g.publish_turn(s, game, last.number, actor="same", now=now)
    # a GM re-run of A-1's last turn with another program: the corrected mails
    with store.write() as s:
        from referee.store.records import hand_of, locked_of

        game = g.get_game(s, "A-1")
        last = g.last_resolved(s, game)
        hand = hand_of(last, "Hammer")
        locked = locked_of(last, "Hammer")
        cards = [locked.get(r) or hand[r - 1] for r in range(1, 6)]
        rerun = g.rerun_turn(s, game, last.number, programs={"Hammer": cards}, actor="same", now=now)
        if rerun.changed:
            enqueue_turn_mails(s, settings, game, rerun.turn, now=now, correction=True)
    # a game won: Hammer on the last flag with every other touched
    new("W-1", "sprint", four[:3])
    board = load_board("sprint")
    with store.write() as s:
        game = g.get_game(s, "W-1")
        robots = g.robots_of(g.open_turn(s, game))
        robots[1] = replace(robots[1], pos=board.flags[board.flag_count], flags=board.flag_count - 1,
                            virtual=False, first_turn=False)
        robots[2] = replace(robots[2], flags=1)
        turn = g.replace_open_state(s, game, robots, actor="same", now=T0)
        hand = turn.hands["Hammer"]
        turning = next(c for c in hand if c.split()[0] in ("LF90", "RT90", "UTRN"))
        g.submit_program(s, game, "Hammer", [turning, *[c for c in hand if c != turning][:4]], actor="same", now=now)
        turn = g.resolve_turn(s, game, fill=g.random_fill, actor="same", now=now)
        enqueue_turn_mails(s, settings, turn.game, turn, now=now)
    rows = []
    with store.read() as s:
        for m in s.scalars(select(OutgoingMail).order_by(OutgoingMail.id)):
            rows.append({c.name: getattr(m, c.key) for c in OutgoingMail.__table__.columns})
    store.close()
    return rows


def compare(old_file: str, new_file: str) -> int:
    old, new = (pickle.loads(Path(f).read_bytes()) for f in (old_file, new_file))
    bad = 0
    if len(old) != len(new):
        print(f"{len(old)} rows before, {len(new)} now")
        bad += 1
    for a, b in zip(old, new, strict=False):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                bad += 1
                if bad <= 20:
                    print(f"row {a.get('id')} ({a.get('kind')}, {a.get('subject')!r}): {k} differs")
                    if k == "raw":
                        la, lb = a[k].split(b"\r\n"), b[k].split(b"\r\n")
                        i = next(i for i, (x, y) in enumerate(zip(la, lb, strict=False)) if x != y) if la != lb else 0
                        print(f"   line {i}: {la[i:i + 1]!r}\n        now {lb[i:i + 1]!r}")
    kinds: dict[str, int] = {}
    for r in new:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    print(f"{len(new)} mails ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}): "
          + ("the same, every column, byte for byte" if not bad else f"{bad} differences"))
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", help="import the referee from this checkout instead")
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = ap.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare))
    if args.repo:
        sys.path.insert(0, str(Path(args.repo).resolve()))
    fixed_randomness()
    import referee

    print(f"referee from {Path(referee.__file__).parent}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="same-mails-") as d:
        rows = play(Path(d))
    Path(args.out).write_bytes(pickle.dumps(rows))
    print(f"{len(rows)} mails written to {args.out}")


if __name__ == "__main__":
    main()
