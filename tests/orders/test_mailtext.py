"""Reading a mail as it arrives: headers, the body text, charsets, size, and loop protection."""

import base64
from email.message import EmailMessage

import pytest

from referee.orders import GAME_HEADER, loop_reason, outgoing_headers, read_mail

LOOP_ID = "referee@example.org"


def mail(body="1 2 3 4 5\n", **headers):
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "Bob Smith <Bob@Example.COM>")
    msg["To"] = headers.pop("To", "referee+rr7-twonky@example.org")
    msg["Subject"] = headers.pop("Subject", "Re: RR-7 turn 4")
    msg["Message-ID"] = headers.pop("Message_ID", "<abc123@example.com>")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def raw(msg):
    return msg.as_bytes()


# --- headers and a plain body -------------------------------------------------------------

def test_a_plain_mail_gives_its_sender_ids_and_text():
    m = read_mail(raw(mail(In_Reply_To="<turn4@example.org>", References="<turn3@example.org> <turn4@example.org>")))
    assert m.rejected is None
    assert m.sender == "bob@example.com" and m.sender_name == "Bob Smith"
    assert m.message_id == "<abc123@example.com>"
    assert m.subject == "Re: RR-7 turn 4"
    assert m.in_reply_to == "<turn4@example.org>"
    assert m.references == ("<turn3@example.org>", "<turn4@example.org>")
    assert m.recipients == ("referee+rr7-twonky@example.org",)
    assert m.body == "1 2 3 4 5\n" and m.body_type == "text/plain"


def test_an_encoded_display_name_and_subject_are_decoded():
    data = (b"From: =?utf-8?q?J=C3=B6rg?= <jorg@example.de>\r\nSubject: =?iso-8859-1?q?Z=FCge?=\r\n"
            b"Message-ID: <x@y>\r\n\r\n1 2 3 4 5\r\n")
    m = read_mail(data)
    assert (m.sender_name, m.sender, m.subject) == ("Jörg", "jorg@example.de", "Züge")


def test_a_mail_without_from_has_no_sender_but_is_still_read():
    m = read_mail(b"Subject: hi\r\n\r\n1 2 3 4 5\r\n")
    assert m.sender is None and m.body.strip() == "1 2 3 4 5" and m.rejected is None


def test_a_garbled_from_header_does_not_crash():
    m = read_mail(b"From: <<<@@@>>> \"unclosed\r\nMessage-ID: no brackets\r\n\r\nREBOOT\r\n")
    assert m.body.strip() == "REBOOT"


# --- which part is the body ---------------------------------------------------------------------

def test_html_only_mail_is_turned_into_text_without_markup_escapes():
    msg = mail()
    msg.set_content("<html><body><div>1. FWD2 670</div><div>- REBOOT</div><p><b>SACRIFICE</b> AT HP 4</p>"
                    "<blockquote>BEGIN RR-7 Twonky turn 4<br>END</blockquote></body></html>", subtype="html")
    m = read_mail(raw(msg))
    assert m.body_type == "text/html"
    lines = [x.strip() for x in m.body.splitlines() if x.strip()]
    assert lines[:3] == ["1. FWD2 670", "- REBOOT", "SACRIFICE AT HP 4"]
    assert all(x.startswith(">") for x in lines[3:])   # the blockquote stays a quote


def test_an_html_table_of_registers_reads_as_lines():
    msg = mail()
    msg.set_content("<table><tr><td>1</td><td>FWD2 670</td></tr><tr><td>2</td><td>FWD1 500</td></tr></table>",
                    subtype="html")
    lines = [" ".join(x.split()) for x in read_mail(raw(msg)).body.splitlines() if x.strip()]
    assert lines == ["1 FWD2 670", "2 FWD1 500"]


def test_the_plain_part_of_an_alternative_is_preferred():
    msg = mail("plain: 1 2 3 4 5\n")
    msg.add_alternative("<p>html: 5 4 3 2 1</p>", subtype="html")
    m = read_mail(raw(msg))
    assert m.body_type == "text/plain" and "plain" in m.body


def test_an_empty_plain_part_falls_back_to_the_html_part():
    msg = mail("   \n")
    msg.add_alternative("<p>5 4 3 2 1</p>", subtype="html")
    m = read_mail(raw(msg))
    assert m.body_type == "text/html" and m.body.strip() == "5 4 3 2 1"


def test_attachments_are_not_read_even_when_they_are_text():
    msg = mail("1 2 3 4 5\n")
    msg.add_attachment("5 4 3 2 1\nREBOOT\n", filename="orders.txt")
    msg.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename="board.png")
    m = read_mail(raw(msg))
    assert m.body == "1 2 3 4 5\n"
    assert m.notes == ["2 attachments not read"]


def test_a_mail_whose_only_text_is_an_attachment_is_rejected_with_a_reason():
    msg = mail("")
    msg.clear_content()
    msg.add_attachment("1 2 3 4 5\n", filename="orders.txt")
    m = read_mail(raw(msg))
    assert m.body == "" and "no text" in m.rejected


def test_an_empty_body_is_rejected_with_a_reason():
    m = read_mail(b"From: bob@example.com\r\n\r\n")
    assert m.rejected is not None and "no text" in m.rejected
    assert m.sender == "bob@example.com"


def test_format_flowed_soft_breaks_are_joined():
    data = (b"From: bob@example.com\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\n\r\n"
            b"FWD2 670, FWD1 500, \r\nLF90 90, RT90 80, UTRN 10\r\n>quoted soft \r\n>line\r\n-- \r\nBob\r\n")
    assert read_mail(data).body.splitlines() == ["FWD2 670, FWD1 500, LF90 90, RT90 80, UTRN 10",
                                                 "> quoted soft line", "-- ", "Bob"]


# --- charsets -------------------------------------------------------------------------------

def body_of(charset: str, payload: bytes) -> str:
    data = (f"From: bob@example.com\r\nContent-Type: text/plain; charset={charset}\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + payload
    return read_mail(data).body


def test_a_declared_latin1_text_is_decoded_as_latin1():
    assert body_of("iso-8859-1", "Grüße\n".encode("latin-1")) == "Grüße\n"


def test_utf8_mislabelled_as_latin1_is_read_as_utf8():
    m = read_mail(b"From: a@b.c\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n" + "Grüße\n".encode())
    assert m.body == "Grüße\n"
    assert any("is UTF-8" in n for n in m.notes)


def test_an_unknown_charset_falls_back_with_a_note():
    m = read_mail(b"From: a@b.c\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\n" + "Grüße\n".encode())
    assert m.body == "Grüße\n"
    assert any("unknown charset" in n for n in m.notes)


@pytest.mark.parametrize("charset", ["us-ascii", "utf-8"])
def test_bytes_that_do_not_fit_the_declared_charset_still_decode(charset):
    assert body_of(charset, "Größe 1 2 3 4 5\n".encode("cp1252")) == "Größe 1 2 3 4 5\n"


def test_a_utf16_mail_is_read():
    payload = base64.b64encode("1: FWD2 670\r\nREBOOT\r\n".encode("utf-16"))
    data = (b"From: a@b.c\r\nContent-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + payload + b"\r\n")
    assert read_mail(data).body.splitlines() == ["1: FWD2 670", "REBOOT"]


def test_a_damaged_text_in_a_multibyte_charset_keeps_what_can_be_read():
    m = read_mail(b"From: a@b.c\r\nContent-Type: text/plain; charset=shift_jis\r\n\r\n"
                  + "ロボ 1 2 3 4 5".encode("shift_jis") + b"\x81\r\n")
    assert m.body.startswith("ロボ 1 2 3 4 5")
    assert any("not valid shift_jis" in n for n in m.notes)


def test_a_codec_that_is_not_a_text_charset_is_not_used():
    # Python knows "base64" and "rot13", but no mail is written in them
    assert body_of("rot13", b"1 2 3 4 5\n") == "1 2 3 4 5\n"
    assert body_of("base64", b"MTIzNDU=\n") == "MTIzNDU=\n"


def test_quoted_printable_and_base64_bodies_are_decoded():
    qp = (b"From: a@b.c\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"
          b"\r\n\r\nGr=C3=BC=C3=9Fe: 1 2 3 4 5\r\n")
    assert read_mail(qp).body.strip() == "Grüße: 1 2 3 4 5"
    b64 = mail("x")
    b64.set_content("Grüße: 1 2 3 4 5\n", cte="base64")
    assert read_mail(raw(b64)).body == "Grüße: 1 2 3 4 5\n"


# --- size and broken mail -------------------------------------------------------------------

def test_a_mail_over_the_size_cap_is_rejected_but_its_sender_is_known():
    big = raw(mail("1 2 3 4 5\n" + "x" * 2_000_000))
    m = read_mail(big)
    assert m.body == "" and m.sender == "bob@example.com" and m.message_id == "<abc123@example.com>"
    assert "more than the 1.0 MB accepted" in m.rejected


def test_the_size_cap_is_configurable():
    data = raw(mail("1 2 3 4 5\n"))
    assert read_mail(data, max_bytes=100).rejected is not None
    assert read_mail(data, max_bytes=len(data)).rejected is None


def test_a_huge_header_is_shortened_and_the_mail_still_read():
    data = b"From: bob@example.com\r\nSubject: " + b"=?utf-8?q?x?= " * 30000 + b"\r\n\r\n1 2 3 4 5\r\n"
    m = read_mail(data)
    assert m.sender == "bob@example.com" and m.body == "1 2 3 4 5\n"
    assert m.notes == ["very long headers were shortened: Subject"]


def test_a_part_header_with_thousands_of_parameters_is_shortened():
    # the standard library's parser takes minutes over such a header; cut, it reads at once
    data = (b"From: bob@example.com\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\n"
            b"Content-Type: text/plain; " + b"a=b; " * 100000 + b"charset=utf-8\r\n\r\nREBOOT\r\n--B--\r\n")
    m = read_mail(data)
    assert m.body.strip() == "REBOOT"
    assert "Content-Type" in m.notes[0]


def test_a_mail_of_thousands_of_parts_is_refused_unparsed():
    parts = b"".join(b"--B\r\nContent-Type: image/png\r\n\r\nx\r\n" for _ in range(2000))
    data = b"From: bob@example.com\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n" + parts + b"--B--\r\n"
    m = read_mail(data)
    assert m.sender == "bob@example.com"
    assert "too many MIME parts" in m.rejected


def test_a_multipart_without_a_boundary_is_read_as_raw_text_with_a_note():
    data = b"From: a@b.c\r\nContent-Type: multipart/mixed\r\n\r\n1 2 3 4 5\r\n"
    m = read_mail(data)
    assert m.body.strip() == "1 2 3 4 5"
    assert any("broken" in n for n in m.notes)


def test_a_truncated_multipart_still_gives_its_text():
    data = (b"From: a@b.c\r\nContent-Type: multipart/alternative; boundary=XX\r\n\r\n--XX\r\n"
            b"Content-Type: text/plain\r\n\r\nREBOOT\r\n--XX\r\nContent-Type: text/html\r\n\r\n<p>cut off")
    assert read_mail(data).body.strip() == "REBOOT"


def test_bad_base64_is_read_as_well_as_it_can_be_with_a_note():
    data = b"From: a@b.c\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64 at all===\r\n"
    m = read_mail(data)
    assert m.sender == "a@b.c"
    assert "base64 encoding is damaged" in " ".join(m.notes)


def test_bytes_that_are_not_a_mail_at_all_become_text_without_nul_characters():
    m = read_mail(b"\x00\xff\xfe" * 100)
    assert m.rejected is None and m.body and "\x00" not in m.body


# --- loops and bounces ------------------------------------------------------------------------

def test_an_ordinary_reply_may_be_answered():
    assert loop_reason(read_mail(raw(mail())), LOOP_ID) is None
    assert loop_reason(read_mail(raw(mail(Auto_Submitted="no"))), LOOP_ID) is None


@pytest.mark.parametrize(("headers", "fragment"), [
    ({"Auto_Submitted": "auto-replied"}, "Auto-Submitted"),
    ({"Auto_Submitted": "auto-generated; owner-email=x@y"}, "Auto-Submitted"),
    ({"Precedence": "bulk"}, "Precedence"),
    ({"Precedence": "Junk"}, "Precedence"),
    ({"Precedence": "list"}, "Precedence"),
    ({"List_Id": "<robots.lists.example.org>"}, "List-Id"),
    ({"X_Loop": LOOP_ID}, "X-Loop"),
    ({"X_Autoreply": "yes"}, "X-Autoreply"),
    ({GAME_HEADER.replace("-", "_"): "RR-7"}, GAME_HEADER),
    ({"From": "MAILER-DAEMON@mx.example.com"}, "mailer-daemon"),
    ({"From": "Postmaster <postmaster@example.com>"}, "postmaster"),
    ({"Return_Path": "<>"}, "Return-Path"),
])
def test_automatic_mail_bounces_and_lists_are_never_answered(headers, fragment):
    reason = loop_reason(read_mail(raw(mail(**headers))), LOOP_ID)
    assert reason is not None and fragment in reason


def test_another_systems_x_loop_is_not_ours():
    assert loop_reason(read_mail(raw(mail(X_Loop="other-list@example.net"))), LOOP_ID) is None


def test_a_delivery_report_is_a_bounce():
    data = (b"From: mx@example.com\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=B\r\n\r\n"
            b"--B\r\nContent-Type: text/plain\r\n\r\nDelivery failed\r\n--B--\r\n")
    assert "multipart/report" in loop_reason(read_mail(data), LOOP_ID)


def test_our_outgoing_headers_make_our_own_mail_refused_if_it_comes_back():
    headers = outgoing_headers(LOOP_ID, game="RR-7")
    assert headers["Auto-Submitted"] == "auto-replied"
    assert headers["X-Loop"] == LOOP_ID
    assert headers["X-Auto-Response-Suppress"] == "All"
    msg = mail()
    for name, value in outgoing_headers(LOOP_ID).items():
        msg[name] = value
    assert loop_reason(read_mail(raw(msg)), LOOP_ID) is not None


def test_a_turn_mail_is_auto_generated_rather_than_a_reply():
    assert outgoing_headers(LOOP_ID, reply=False)["Auto-Submitted"] == "auto-generated"
