"""How heavy a turn mail is (issue 42): each seat's ``SET PICTURES`` (ALL, STAGES, NONE), and every mail kept
under 250 KB, on the biggest course with 8 robots too; what a mail leaves out, it names; the animation made
only when a mail takes it; the PNGs at their level, the same pixels.

Rulings cited (docs/rulings.md): 42.w1, 42.w2, 42.w3, 46.d1.
"""

from __future__ import annotations

import email
import io
from email import policy
from email.message import EmailMessage

import pytest
from PIL import Image

from referee.render import make_players, render_turn
from referee.render.mail import turn_mail
from referee.render.png import png_bytes
from referee.render.turn import MAIL_BUDGET, RenderedTurn, choose_pictures, player_mail, within_budget

from . import big_game
from .conftest import DOMAIN, SENDER, SeededTurn

NAMES = big_game.NAMES


def _mail(rendered: RenderedTurn, robot: str, pictures: str) -> bytes:
    player = next(p for p in make_players(NAMES) if p.robot == robot)
    return bytes(player_mail(rendered, player, sender=SENDER, recipient="me@example.org", subject="turn",
                             domain=DOMAIN, pictures=pictures))


def _parts(raw: bytes) -> list[str]:
    msg: EmailMessage = email.message_from_bytes(raw, policy=policy.default)  # type: ignore[assignment]
    return [p.get_content_type() for p in msg.walk() if not p.is_multipart()]


def _text(raw: bytes) -> str:
    msg: EmailMessage = email.message_from_bytes(raw, policy=policy.default)  # type: ignore[assignment]
    return " ".join(msg.get_body(("plain",)).get_content().split())  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def factory_turn() -> RenderedTurn:
    """Turn 4 of 8 robots on factory (24 x 28), seeded random programs: robots spread over the course."""
    return big_game.play(turns=4).rendered


def test_a_small_turns_mail_at_all_carries_every_board_the_key_and_the_animation(seeded: SeededTurn):
    rendered = render_turn(seeded.board, seeded.result, seeded.players, "RR-7", 4)
    chosen = choose_pictures(rendered, "all")
    assert chosen.pictures == rendered.pictures and chosen.legend == rendered.legend
    assert chosen.gif is rendered.gif and chosen.left_out == [] and chosen.note() is None


def test_stages_leaves_out_only_the_animation_and_none_every_picture(seeded: SeededTurn):
    rendered = render_turn(seeded.board, seeded.result, seeded.players, "RR-7", 4)
    stages = choose_pictures(rendered, "stages")
    assert stages.pictures == rendered.pictures and stages.legend == rendered.legend and stages.gif is None
    assert stages.left_out == []   # not carried by choice, so not named as left out
    none = choose_pictures(rendered, "none")
    assert (none.pictures, none.gif, none.legend) == ([], None, None)
    with pytest.raises(ValueError, match="one of all, stages, none"):
        choose_pictures(rendered, "some")


def test_factory_with_8_robots_at_the_default_stays_under_250_kb_and_names_what_it_left_out(factory_turn):
    raw = _mail(factory_turn, "Twonky", "all")
    assert len(raw) <= MAIL_BUDGET == 250 * 1024
    chosen = choose_pictures(factory_turn, "all")
    assert chosen.left_out, "all the pictures of this turn are over 250 KB: some must be left out"
    assert "the animation" in chosen.left_out
    text = _text(raw)
    assert "To keep this mail under 250 KB, it leaves out" in text
    for caption in chosen.left_out:
        assert caption in text


def test_what_is_kept_first_is_the_end_of_the_turn_then_the_key_then_the_stages_in_turn(factory_turn):
    boards = factory_turn.pictures
    one_board = len(boards[-1].data) * 14 // 10
    chosen = choose_pictures(factory_turn, "stages", room=one_board)
    assert [p.key for p in chosen.pictures] == ["end"] and chosen.legend is None
    room = sum(len(p.data) * 14 // 10 for p in (boards[-1], boards[1], boards[2]))
    room += len(factory_turn.legend.data) * 14 // 10 if factory_turn.legend else 0
    chosen = choose_pictures(factory_turn, "stages", room=room)
    assert [p.key for p in chosen.pictures] == ["stage1", "stage2", "end"] and chosen.legend is not None
    assert chosen.left_out[0] == "the board at the start" and "the board after stage 3" in chosen.left_out


def test_every_setting_of_a_factory_mail_is_under_250_kb_and_none_carries_no_picture(factory_turn):
    sizes = {}
    for setting in ("all", "stages", "none"):
        raw = _mail(factory_turn, "Hammer", setting)
        sizes[setting] = len(raw)
        assert len(raw) <= MAIL_BUDGET
    assert _parts(_mail(factory_turn, "Hammer", "none")) == ["text/plain", "text/html"]
    assert "image/gif" not in _parts(_mail(factory_turn, "Hammer", "stages"))
    assert sizes["none"] < sizes["stages"] <= sizes["all"]


def test_the_animation_is_made_only_when_a_mail_takes_it(factory_turn, seeded: SeededTurn):
    rendered = render_turn(seeded.board, seeded.result, seeded.players, "RR-7", 4)
    made: list[int] = []
    animate = rendered.animate
    rendered.animate = lambda: made.append(1) or animate()
    choose_pictures(rendered, "stages")
    choose_pictures(rendered, "none")
    assert made == []
    chosen = choose_pictures(rendered, "all")
    assert made == [1] and chosen.gif is not None
    choose_pictures(rendered, "all")
    assert made == [1]   # made once for every mail of the turn
    # where the first board's PNG alone would not fit, the animation (LZW, less packed) is not made to find out
    factory_made: list[int] = []
    fresh = render_turn(seeded.board, seeded.result, seeded.players, "RR-7", 4)
    fresh.animate = lambda: factory_made.append(1) or animate()
    small = choose_pictures(fresh, "all", room=len(fresh.pictures[0].data))
    assert factory_made == [] and small.gif is None and "the animation" in small.left_out


def test_a_stage_png_at_its_level_is_the_same_pixels_and_palette(factory_turn):
    frame = factory_turn.frames[3].image
    back = Image.open(io.BytesIO(png_bytes(frame)))
    back.load()
    assert back.mode == "P" and back.getpalette() == frame.getpalette()
    assert back.tobytes() == frame.tobytes()


def test_after_the_first_mail_of_a_turn_each_mail_is_built_once(seeded: SeededTurn):
    rendered = render_turn(seeded.board, seeded.result, seeded.players, "RR-7", 4)
    built: list[str] = []

    def build(player):
        def make(chosen):
            built.append(player.robot)
            return player_mail_of(rendered, player, chosen)
        return make

    for player in seeded.players:
        within_budget(rendered, "all", build(player))
    assert rendered.text_size > 0
    assert built[1:] == [p.robot for p in seeded.players[1:]]   # the first may be built twice, no other


def player_mail_of(rendered: RenderedTurn, player, chosen):
    return turn_mail(report=rendered.report, pictures=chosen.pictures, gif=chosen.gif, legend=chosen.legend,
                     sender=SENDER, recipient=f"{player.robot.lower()}@example.org", subject="turn", domain=DOMAIN)


def test_on_a_wide_course_the_readers_crops_come_first_and_stand_in_for_whole_boards_left_out(factory_turn):
    crops = factory_turn.crops("Hammer")
    assert crops, "factory is 24 squares wide: its pictures are cut around the reader's robot"
    chosen = choose_pictures(factory_turn, "all", crops=crops)
    assert chosen.crops == crops   # every piece kept: small, and what a phone shows
    assert any(c.startswith("the board after stage") for c in chosen.left_out)
    assert "where a whole board is left out, the piece around your robot is shown" in chosen.note()
    raw = _mail(factory_turn, "Hammer", "all")
    assert len(raw) <= MAIL_BUDGET
    assert sum(1 for t in _parts(raw) if t == "image/png") >= len(crops) + 2   # the pieces, the key, the end
    tight = choose_pictures(factory_turn, "stages", room=len(crops["end"].data) * 3 // 2 + 400, crops=crops)
    assert list(tight.crops) == ["end"] and tight.pictures == []
    assert "the piece around your robot of the board after stage 1" in tight.left_out
