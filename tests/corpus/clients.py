"""Mail programs' replies, byte for byte: each builder takes the player's new text and the mail she
answers (its text, Message-ID, subject, sender) and writes the reply as that client puts it on the wire.

Clients: Gmail (top-posted, multipart, quoted-printable), Outlook desktop (the original pasted under a
From:/Sent: block, base64) and on the web (html only), Outlook for iOS and Android, Apple Mail
(format=flowed, delsp=yes: long lines broken with a trailing space and joined again by the reader), iPhone
Mail, Thunderbird (bottom-posted, format=flowed), Roundcube, K-9 Mail / FairEmail and mutt (bottom-posted,
8bit). Attribution lines come in English, German, French, Dutch, Spanish, Italian, Polish and Swedish.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.intake.replies.make_corpus import LANGS as _LANGS
from tests.intake.replies.make_corpus import Lang, b64, html_of, qp

LANGS: list[Lang] = [lang for lang in _LANGS if lang.code != "pt"]
CLIENTS = ["gmail", "outlook", "outlook-web", "outlook-ios", "outlook-android", "apple", "iphone", "thunderbird",
           "roundcube", "k9", "fairemail", "mutt"]
#: clients whose reply quotes the original with ">" lines, so a player can type into its form
QUOTING = {"gmail", "apple", "iphone", "thunderbird", "roundcube", "k9", "fairemail", "mutt"}


@dataclass(frozen=True)
class Original:
    """The mail replied to."""

    text: str
    message_id: str
    subject: str
    sender: str = "RoboRally referee <referee@example.test>"
    #: where a reply goes (the turn mail's Reply-To carries the player's key)
    reply_to: str = "referee@example.test"


def quote(text: str, mark: str = "> ") -> str:
    return "\n".join((mark + line).rstrip() if line else mark.rstrip() for line in text.split("\n"))


def flowed(text: str, width: int = 72) -> str:
    """``text`` as format=flowed with delsp=yes writes it (RFC 3676): a long line is broken after a space
    into pieces that end in a space (delsp: one more, deleted again by the reader); quote marks are
    repeated on every piece; a space-stuffed "From " or ">" at the start."""
    out: list[str] = []
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        prefix, content = line[:depth], line[depth:]
        if depth and content.startswith(" "):
            content = content[1:]
        lead = (prefix + " ") if depth else ""
        content = content.rstrip(" ")
        while len(lead) + len(content) > width and " " in content[: width - len(lead)]:
            cut = content.rfind(" ", 0, width - len(lead))
            out.append(lead + content[:cut] + "  ")   # the space kept + the delsp space
            content = content[cut + 1:]
        if not depth and (content.startswith("From ") or content.startswith(">")):
            content = " " + content
        out.append(lead + content)
    return "\n".join(out)


def _head(sender: str, original: Original, msgid: str, extra: list[str], *, subject_prefix: str = "Re: ",
          to: str = "RoboRally referee <referee@example.test>", more: list[str] | None = None) -> str:
    return "\n".join([f"From: {sender}", f"To: {to}", f"Subject: {subject_prefix}{original.subject}",
                      "Date: Wed, 25 Nov 2026 10:40:11 +0100", f"Message-ID: {msgid}",
                      f"In-Reply-To: {original.message_id}", f"References: {original.message_id}", *(more or []),
                      *extra])


def build(client: str, lang: Lang, body: str, original: Original, *, n: int, sender: str, to: str,
          more: list[str] | None = None) -> bytes:
    """The reply of ``client`` in ``lang`` with ``body`` above (or under) the quoted ``original``."""
    text = _build(client, lang, body, original, n=n, sender=sender, to=to, more=more)
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def _build(client: str, lang: Lang, body: str, o: Original, *, n: int, sender: str, to: str,
           more: list[str] | None) -> str:
    who = f"Alice Example <{sender}>"
    attribution = {"gmail": lang.gmail, "apple": lang.apple, "iphone": lang.apple, "thunderbird": lang.thunderbird,
                   "roundcube": lang.roundcube}.get(client, lang.thunderbird)
    attribution = attribution.replace("referee@example.test", "referee@example.test")
    if client == "gmail":
        text = f"{body}\n\n{attribution}\n\n{quote(o.text)}\n"
        html = (f'<div dir="ltr">{html_of(body)}</div><br><div class="gmail_quote"><div dir="ltr" '
                f'class="gmail_attr">{html_of(attribution)}<br></div><blockquote class="gmail_quote" '
                f'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">'
                f"{html_of(o.text)}</blockquote></div>\n")
        b = f"000000000000{n:05d}a1b2c3d4e5f6"
        head = _head(who, o, f"<CAF3xq{n:05d}Zq@mail.gmail.com>", ["MIME-Version: 1.0",
                     f'Content-Type: multipart/alternative; boundary="{b}"'], to=to, more=more)
        return head + (f"\n\n--{b}\nContent-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: "
                       f"quoted-printable\n\n{qp(text)}\n--{b}\nContent-Type: text/html; charset=\"UTF-8\"\n"
                       f"Content-Transfer-Encoding: quoted-printable\n\n{qp(html)}\n--{b}--\n")
    if client.startswith("outlook"):
        f, s, t, subj = lang.outlook
        sep = "" if client in ("outlook-ios", "outlook-android") else "________________________________\n"
        pasted = (f"{sep}{f}: {o.sender}\n{s}: {lang.outlook_date}\n{t}: {who}\n{subj}: {o.subject}\n\n{o.text}")
        under = {"outlook-ios": lang.outlook_ios,
                 "outlook-android": lang.outlook_ios.replace("iOS", "Android").replace("o0ukef", "ghei36")}
        text = f"{body}\n\n{under[client]}\n{pasted}" if client in under else f"{body}\n\n{pasted}"
        html = (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body>'
                f'<div style="font-family: Aptos, sans-serif; font-size: 12pt;">{html_of(body)}</div>'
                f'<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
                f'<div id="divRplyFwdMsg" dir="ltr">{html_of(pasted)}</div></body></html>\n')
        b = f"_000_PAXPR{n:05d}MB1234EURP_"
        extra = ["Thread-Topic: " + o.subject, f"Thread-Index: AQHb{n:05d}xyzAbCdEfGhIjKlMn==", "X-MS-Has-Attach:",
                 f"Content-Language: {lang.code}-{lang.code.upper()}", "MIME-Version: 1.0"]
        msgid = f"<PAXPR{n:05d}MB1234E1A2B3C4D5E6F7@PAXPR{n:05d}MB1234.eurprd04.prod.outlook.com>"
        prefix = "AW: " if lang.code == "de" else "RE: "
        if client == "outlook-web":
            head = _head(who, o, msgid, [*extra, 'Content-Type: text/html; charset="utf-8"',
                                         "Content-Transfer-Encoding: base64"], subject_prefix=prefix, to=to, more=more)
            return head + f"\n\n{b64(html)}\n"
        head = _head(who, o, msgid, [*extra, f'Content-Type: multipart/alternative; boundary="{b}"'],
                     subject_prefix=prefix, to=to, more=more)
        return head + (f"\n\n--{b}\nContent-Type: text/plain; charset=\"utf-8\"\nContent-Transfer-Encoding: "
                       f"base64\n\n{b64(text)}\n\n--{b}\nContent-Type: text/html; charset=\"utf-8\"\n"
                       f"Content-Transfer-Encoding: base64\n\n{b64(html)}\n\n--{b}--\n")
    if client in ("apple", "iphone"):
        sent = f"\n\n{lang.iphone}" if client == "iphone" else ""
        text = f"{body}{sent}\n\n{attribution}\n\n{quote(o.text)}\n"
        mailer = ["Mime-Version: 1.0 (1.0)", "X-Mailer: iPhone Mail (22B91)"] if client == "iphone" else \
            ["Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3826.200.121\\))", "X-Mailer: Apple Mail (2.3826.200.121)"]
        head = _head(who, o, f"<{n:05d}A1B2-C3D4-4E5F-8A9B-0C1D2E3F4A5B@example.test>",
                     [*mailer, "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes",
                      "Content-Transfer-Encoding: quoted-printable"], to=to, more=more)
        return head + f"\n\n{qp(flowed(text))}\n"
    if client in ("thunderbird", "k9", "mutt", "fairemail"):
        if client == "mutt":
            attribution = f"On Wed, Nov 25, 2026 at 09:00:00AM +0000, {o.sender.split(' <')[0]} wrote:"
        elif client in ("k9", "fairemail"):
            attribution = lang.apple   # K-9 and FairEmail write "<name> wrote on <date>:"-like lines per locale
        text = f"{attribution}\n{quote(o.text)}\n\n{body}\n"
        agent = {"thunderbird": "User-Agent: Mozilla Thunderbird", "k9": "User-Agent: K-9 Mail for Android",
                 "mutt": "User-Agent: Mutt/2.2.12 (2023-09-09)", "fairemail": "User-Agent: FairEmail"}[client]
        ctype = "text/plain; charset=UTF-8; format=flowed" if client != "mutt" else "text/plain; charset=utf-8"
        msgid = f"<{n:05d}c0ffee-{client}-4abc-9def-0123456789ab@example.test>"
        head = _head(who, o, msgid, ["MIME-Version: 1.0", agent, f"Content-Language: {lang.code}",
                                     f"Content-Type: {ctype}", "Content-Transfer-Encoding: 8bit"], to=to, more=more)
        return head + f"\n\n{text}"
    # roundcube: top-posted, format=flowed
    text = f"{body}\n\n{attribution}\n{quote(o.text)}\n"
    head = _head(sender, o, f"<{n:05d}f00d2b6c7e8a9b0c1d2e3f4a5b6c7d@example.test>",
                 ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8; format=flowed",
                  "Content-Transfer-Encoding: 8bit", "User-Agent: Roundcube Webmail/1.6.9"], to=to, more=more)
    return head + f"\n\n{text}"
