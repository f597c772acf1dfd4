"""The turn mail as built (not sent): its MIME structure, headers, inline pictures and stable identity.

Rulings cited (docs/rulings.md): 18.p3.
"""

from __future__ import annotations

import email
import io
import re
from email import policy
from email.message import EmailMessage

import pytest
from PIL import Image

from referee.render import build_message, message_id, player_mail

from .conftest import DOMAIN, GAME, HEADERS, ME, ORDER_TEMPLATE, SENDER, TURN, SeededTurn
from .golden import check_golden


def _parsed(msg: EmailMessage) -> EmailMessage:
    """The message as a receiving client sees it: serialised, then parsed back."""
    return email.message_from_bytes(bytes(msg), policy=policy.default)  # type: ignore[return-value]


def _tree(part: EmailMessage) -> object:
    if part.is_multipart():
        return (part.get_content_type(), [_tree(p) for p in part.iter_parts()])
    return part.get_content_type()


def test_the_mail_is_text_or_html_with_the_pictures_the_key_and_the_gif_inline(my_mail, rendered):
    msg = _parsed(my_mail)
    assert _tree(msg) == ("multipart/alternative", [
        "text/plain",
        ("multipart/related", ["text/html"] + ["image/png"] * (len(rendered.pictures) + 1) + ["image/gif"]),
    ])
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    names = [p.get_filename() for p in related.iter_parts() if p.get_content_maintype() == "image"]
    files = [p.filename for p in rendered.pictures]
    assert names == [*files, rendered.legend.filename, rendered.gif.filename]  # as the HTML shows them
    [gif] = [p for p in related.iter_parts() if p.get_content_type() == "image/gif"]
    assert Image.open(io.BytesIO(gif.get_content())).n_frames > len(rendered.pictures)


def test_every_picture_the_html_shows_is_in_the_mail_and_decodes(my_mail, rendered):
    msg = _parsed(my_mail)
    html = msg.get_body(("html",)).get_content()
    wanted = re.findall(r'src="cid:([^"]+)"', html)
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    images = {p["Content-ID"].strip("<>"): p for p in related.iter_parts() if p.get_content_maintype() == "image"}
    assert wanted == list(images)
    for part in images.values():
        assert part.get_content_disposition() == "inline"
        img = Image.open(io.BytesIO(part.get_content()))
        img.load()
        assert img.format == ("GIF" if part.get_content_subtype() == "gif" else "PNG")


def test_the_text_part_says_where_the_pictures_and_the_animation_are(my_mail, rendered, seeded: SeededTurn):
    """A reader of the plain text sees no picture: the text part says that the HTML part holds them, and names
    the attached files, each one a part of this very mail; with an archive, the web page too."""
    msg = _parsed(my_mail)
    text = " ".join(msg.get_body(("plain",)).get_content().split())
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    names = {p.get_filename() for p in related.iter_parts() if p.get_content_maintype() == "image"}
    assert "the HTML part of this mail shows each stage's board" in text
    assert f"the animation ({rendered.gif.filename})" in text and rendered.gif.filename in names
    assert f"the key ({rendered.legend.filename})" in text and rendered.legend.filename in names
    assert f"the boards ({rendered.pictures[0].filename} and on)" in text
    assert "web page" not in text

    me = next(p for p in seeded.players if p.robot == ME)
    rendered.report.archive_url = "https://rr.example.test/archive/rr-7/turn-4.html"
    try:
        linked = " ".join(player_mail(rendered, me, sender=SENDER, recipient="zoom.player@example.test",
                                      subject=f"{GAME} turn {TURN}", domain=DOMAIN, headers=HEADERS)
                          .get_body(("plain",)).get_content().split())
    finally:
        rendered.report.archive_url = None
    assert "This turn's web page, below, shows them too." in linked
    assert "This turn on the web: https://rr.example.test/archive/rr-7/turn-4.html" in linked


def test_the_headers_are_the_ones_passed_in(my_mail):
    msg = _parsed(my_mail)
    assert msg["From"] == SENDER
    assert msg["To"] == "zoom.player@example.test"
    assert msg["Subject"] == f"{GAME} turn {TURN}"
    for name, value in HEADERS.items():
        assert msg[name] == value
    assert msg["Message-ID"] == message_id(GAME, TURN, "zoom.player@example.test", DOMAIN)


def test_the_message_id_is_stable_per_game_turn_and_recipient_and_hides_the_address():
    one = message_id(GAME, TURN, "zoom@example.test", DOMAIN)
    assert one == message_id(GAME, TURN, "Zoom@Example.test", DOMAIN)
    assert one != message_id(GAME, TURN, "hammer@example.test", DOMAIN)
    assert one != message_id(GAME, TURN + 1, "zoom@example.test", DOMAIN)
    assert one != message_id(GAME, TURN, "zoom@example.test", DOMAIN, kind="reminder")
    assert re.fullmatch(r"<[A-Za-z0-9.-]+@example\.test>", one)
    assert "zoom" not in one


def test_building_the_same_mail_twice_gives_the_same_bytes(seeded: SeededTurn, rendered, next_deal, my_mail):
    me = next(p for p in seeded.players if p.robot == ME)
    robot = next(r for r in seeded.result.robots if r.name == ME)
    again = player_mail(rendered, me, sender=SENDER, recipient="zoom.player@example.test",
                        subject=f"{GAME} turn {TURN}", domain=DOMAIN, hand=next_deal.hands.get(ME, []),
                        locked=next_deal.locked.get(ME, {}), order_template=ORDER_TEMPLATE, robot=robot,
                        headers=HEADERS)
    assert bytes(again) == bytes(my_mail)


def test_the_text_and_html_bodies_match_their_golden_files(my_mail):
    msg = _parsed(my_mail)
    text = msg.get_body(("plain",)).get_content()
    html = msg.get_body(("html",)).get_content()
    check_golden("mail.txt", text)
    check_golden("mail.html", html)
    assert ORDER_TEMPLATE.rstrip() in text
    assert "Stage 1" in text and "End of turn" in text


def test_a_name_outside_ascii_travels_quoted_printable_and_comes_back_intact():
    msg = build_message(sender=SENDER, recipient="z@example.test", subject="Zoë's turn", msg_id="<a@example.test>",
                        text="Zoë moves to r4c4\n", html="<p>Zoë moves to r4c4</p>")
    raw = bytes(msg)
    assert raw.isascii()
    back = _parsed(msg)
    assert back["Subject"] == "Zoë's turn"
    assert back.get_body(("plain",)).get_content() == "Zoë moves to r4c4\n"
    assert back.get_body(("plain",))["Content-Transfer-Encoding"] == "quoted-printable"


@pytest.mark.parametrize(("text", "cte"), [
    ("short lines\n" * 200, "7bit"),
    ("a" * 998 + "\n", "7bit"),
    ("a" * 999 + "\n", "quoted-printable"),  # longer than a mail line may be
    ("a" * 600 + "\r" + "a" * 600 + "\n", "7bit"),  # two lines, ended by a carriage return between them
    ("a" * 600 + "\x0c" + "a" * 600 + "\n", "7bit"),  # a form feed ends a line too
])
def test_a_part_travels_7bit_only_when_each_line_fits_in_a_mail_line(text, cte):
    msg = build_message(sender=SENDER, recipient="z@example.test", subject="s", msg_id="<a@example.test>",
                        text=text, html="<p>" + text + "</p>")
    body = _parsed(msg).get_body(("plain",))
    assert body["Content-Transfer-Encoding"] == cte
    assert body.get_content() == text.replace("\r", "\n")


def test_identity_headers_cannot_be_overridden_through_extra_headers():
    with pytest.raises(ValueError, match="Message-ID"):
        build_message(sender=SENDER, recipient="z@example.test", subject="s", msg_id="<a@example.test>", text="t",
                      headers={"Message-ID": "<b@example.test>"})
