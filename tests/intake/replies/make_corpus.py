"""Writes the reply shapes in this folder (``python -m tests.intake.replies.make_corpus``).

Each ``.eml`` is a player's answer to the turn mail of RR-7, turn 4, robot Twonky, as one mail
program writes it on the wire (headers, MIME structure, transfer encoding, quoting, attribution,
signature, HTML part) in one language. ``X-Test-Expect`` says what the referee must make of it:
``accept`` (the program FWD2 670, RT90 80, FWD1 500, RVS1 430, UTRN 10) or ``refuse: <reason>``.
The files are kept in the repository; this script is how they were made and can make them again.
"""

from __future__ import annotations

import base64
import quopri
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFEREE = "RoboRally referee <referee@example.test>"
TURN_ID = "<rr-7.t3.turn-5c0e21a9d4.b1f0e7c24a95d3e8a6f1@example.test>"
SUBJECT = "RR-7 turn 3 results, your cards for turn 4"
BEGIN = "BEGIN RR-7 Twonky turn 4 key 8f3k2q"

#: the turn mail as the player got it (its own template block included)
TURN_MAIL = f"""{SUBJECT}

Twonky is at r5c4 facing N, damage 2, lives 3, flags 1 of 3.
Deadline: 2026-11-24 18:00 UTC (1 day 19 hours left)

Your hand:
  1  FWD2 670
  2  FWD1 500
  3  LF90 90
  4  RT90 80
  5  UTRN 10
  6  FWD1 520
  7  RVS1 430
  8  FWD3 800
  9  LF90 110

Reply with this block filled in:

{BEGIN}
1:
2:
3:
4:
5:
END
"""

PROGRAMS = [
    "FWD2 670, RT90 80, FWD1 500, RVS1 430, UTRN 10",
    "1: FWD2 670\n2: RT90 80\n3: 2\n4: 7\n5: U-Turn P10",
    "Move-2 P670, Right P80, Move-1 P500, Back P430, U-Turn P10",
    "1, 4, 2, 7, 5",
    f"{BEGIN}\n1: FWD2 670\n2: RT90 80\n3: FWD1 500\n4: RVS1 430\n5: UTRN 10\nEND",
    "a) FWD2 670\nb) Right 80\nc) 500\nd) Back 430\ne) 10",
]


@dataclass(frozen=True)
class Lang:
    code: str
    hello: str
    signoff: str
    extra: str            # a stray line with a digit, as players write them
    signature: str        # name, phone, address
    gmail: str
    apple: str
    iphone: str           # the line iOS Mail puts under the text
    thunderbird: str
    roundcube: str
    outlook: tuple[str, str, str, str]   # From, Sent, To, Subject labels
    outlook_date: str
    outlook_ios: str


LANGS = [
    Lang("en", "Hi,", "Cheers,", "2 more flags to go.", "A.\n+44 20 7946 0958\n12 Main Street, Bristol BS1 4DJ",
         "On Sun, 22 Nov 2026 at 22:22, RoboRally referee <referee@example.test> wrote:",
         "On 22 Nov 2026, at 22:22, RoboRally referee <referee@example.test> wrote:",
         "Sent from my iPhone", "On 22/11/2026 22:22, RoboRally referee wrote:",
         "On 2026-11-22 22:22, RoboRally referee wrote:", ("From", "Sent", "To", "Subject"),
         "Sunday, November 22, 2026 10:22 PM", "Get Outlook for iOS<https://aka.ms/o0ukef>"),
    Lang("de", "Hallo,", "Viele Grüße", "Noch 2 Flaggen!", "A.\nHauptstraße 12, 10115 Berlin\nTel. 030 1234567",
         "Am So., 22. Nov. 2026 um 22:22 Uhr schrieb RoboRally referee <referee@example.test>:",
         "Am 22.11.2026 um 22:22 schrieb RoboRally referee <referee@example.test>:",
         "Von meinem iPhone gesendet", "Am 22.11.26 um 22:57 schrieb RoboRally referee:",
         "Am 2026-11-22 22:22, schrieb RoboRally referee:", ("Von", "Gesendet", "An", "Betreff"),
         "Sonntag, 22. November 2026 22:22", "Outlook für iOS<https://aka.ms/o0ukef> beziehen"),
    Lang("fr", "Bonjour,", "Bien à vous,", "Plus que 2 drapeaux.", "A. Martin\n12 rue de la Paix, 75002 Paris\n"
         "06 12 34 56 78",
         "Le dim. 22 nov. 2026 à 22:22, RoboRally referee <referee@example.test> a écrit :",
         "Le 22 nov. 2026 à 22:22, RoboRally referee <referee@example.test> a écrit :",
         "Envoyé de mon iPhone", "Le 22/11/2026 à 22:22, RoboRally referee a écrit :",
         "Le 2026-11-22 22:22, RoboRally referee a écrit :", ("De ", "Envoyé ", "À ", "Objet "),
         "dimanche 22 novembre 2026 22:22", "Télécharger Outlook pour iOS<https://aka.ms/o0ukef>"),
    Lang("nl", "Hoi,", "Groet,", "Nog 2 vlaggen te gaan.", "A.\nKerkstraat 12, 1017 GC Amsterdam\n06-12345678",
         "Op zo 22 nov. 2026 om 22:22 schreef RoboRally referee <referee@example.test>:",
         "Op 22 nov. 2026 om 22:22 heeft RoboRally referee <referee@example.test> het volgende geschreven:",
         "Verstuurd vanaf mijn iPhone", "Op 22-11-2026 om 22:22 schreef RoboRally referee:",
         "Op 2026-11-22 22:22, schreef RoboRally referee:", ("Van", "Verzonden", "Aan", "Onderwerp"),
         "zondag 22 november 2026 22:22", "Outlook voor iOS<https://aka.ms/o0ukef> downloaden"),
    Lang("es", "Hola,", "Saludos,", "Quedan 2 banderas.", "A. García\nCalle Mayor 12, 28013 Madrid\n+34 612 345 678",
         "El dom, 22 nov 2026 a las 22:22, RoboRally referee (<referee@example.test>) escribió:",
         "El 22 nov 2026, a las 22:22, RoboRally referee <referee@example.test> escribió:",
         "Enviado desde mi iPhone", "El 22/11/26 a las 22:22, RoboRally referee escribió:",
         "El 2026-11-22 22:22, RoboRally referee escribió:", ("De", "Enviado", "Para", "Asunto"),
         "domingo, 22 de noviembre de 2026 22:22", "Obtener Outlook para iOS<https://aka.ms/o0ukef>"),
    Lang("it", "Ciao,", "Saluti,", "Mancano 2 bandiere.", "A. Rossi\nVia Roma 12, 00184 Roma\n+39 312 345 6789",
         "Il giorno dom 22 nov 2026 alle ore 22:22 RoboRally referee <referee@example.test> ha scritto:",
         "Il giorno 22 nov 2026, alle ore 22:22, RoboRally referee <referee@example.test> ha scritto:",
         "Inviato da iPhone", "Il 22/11/26 22:22, RoboRally referee ha scritto:",
         "Il 2026-11-22 22:22 RoboRally referee ha scritto:", ("Da", "Inviato", "A", "Oggetto"),
         "domenica 22 novembre 2026 22:22", "Scarica Outlook per iOS<https://aka.ms/o0ukef>"),
    Lang("pt", "Olá,", "Abraços,", "Faltam 2 bandeiras.", "A. Silva\nRua Augusta 12, 1100-053 Lisboa\n"
         "+351 912 345 678",
         "Em dom., 22 de nov. de 2026 às 22:22, RoboRally referee <referee@example.test> escreveu:",
         "No dia 22/11/2026, às 22:22, RoboRally referee <referee@example.test> escreveu:",
         "Enviado do meu iPhone", "Em 22/11/2026 22:22, RoboRally referee escreveu:",
         "Em 2026-11-22 22:22, RoboRally referee escreveu:", ("De", "Enviado", "Para", "Assunto"),
         "domingo, 22 de novembro de 2026 22:22", "Obter o Outlook para iOS<https://aka.ms/o0ukef>"),
    Lang("pl", "Cześć,", "Pozdrawiam,", "Jeszcze 2 flagi.", "A.\nul. Marszałkowska 12, 00-590 Warszawa\n"
         "tel. 512 345 678",
         "W dniu nd., 22.11.2026 o 22:22 RoboRally referee <referee@example.test> napisał(a):",
         "Wiadomość napisana przez RoboRally referee <referee@example.test> w dniu 22.11.2026, o godz. 22:22:",
         "Wysłane z iPhone'a", "W dniu 22.11.2026 o 22:22, RoboRally referee pisze:",
         "W dniu 2026-11-22 22:22, RoboRally referee napisał(a):", ("Od", "Wysłane", "Do", "Temat"),
         "niedziela, 22 listopada 2026 22:22", "Pobierz aplikację Outlook dla systemu iOS<https://aka.ms/o0ukef>"),
    Lang("sv", "Hej,", "Hälsningar,", "2 flaggor kvar.", "A.\nStorgatan 12, 111 51 Stockholm\n070-123 45 67",
         "Den sön 22 nov. 2026 kl 22:22 skrev RoboRally referee <referee@example.test>:",
         "22 nov. 2026 kl. 22:22 skrev RoboRally referee <referee@example.test>:",
         "Skickat från min iPhone", "Den 2026-11-22 kl. 22:22, skrev RoboRally referee:",
         "Den 2026-11-22 22:22, skrev RoboRally referee:", ("Från", "Skickat", "Till", "Ämne"),
         "den 22 november 2026 22:22", "Skaffa Outlook för iOS<https://aka.ms/o0ukef>"),
]


def quote(text: str, mark: str = "> ") -> str:
    return "\n".join((mark + line).rstrip() if line else mark.rstrip() for line in text.split("\n"))


def wrap_gmail(line: str, width: int = 76) -> str:
    """Gmail's plain part wraps a long attribution (before the address when it can)."""
    if len(line) <= width:
        return line
    at = line.rfind(" <", 0, width)
    if at > 0:
        return line[:at + 2] + "\n" + line[at + 2:]
    at = line.rfind(" ", 0, width)
    return line[:at] + "\n" + line[at + 1:]


def qp(text: str) -> str:
    return quopri.encodestring(text.replace("\n", "\r\n").encode()).decode().replace("\r\n", "\n")


def b64(text: str) -> str:
    data = base64.b64encode(text.replace("\n", "\r\n").encode()).decode()
    return "\n".join(data[i:i + 76] for i in range(0, len(data), 76))


def html_of(text: str) -> str:
    from html import escape

    return "<br>\n".join(escape(line) for line in text.split("\n"))


def headers(lang: Lang, n: int, *, sender: str, msgid: str, extra: list[str], expect: str,
            subject: str | None = None) -> list[str]:
    return [f"X-Test-Expect: {expect}", f"From: {sender}", f"To: {REFEREE}",
            f"Subject: {subject or 'Re: ' + SUBJECT}", "Date: Sun, 22 Nov 2026 22:40:11 +0100",
            f"Message-ID: {msgid}", f"In-Reply-To: {TURN_ID}", f"References: {TURN_ID}", *extra]


def gmail(lang: Lang, body: str, n: int, expect: str, *, wrapped: bool = False, original: str = TURN_MAIL) -> str:
    attribution = wrap_gmail(lang.gmail) if wrapped else lang.gmail
    text = f"{body}\n\n{attribution}\n\n{quote(original)}\n"
    html = (f'<div dir="ltr">{html_of(body)}</div><br><div class="gmail_quote"><div dir="ltr" '
            f'class="gmail_attr">{html_of(lang.gmail)}<br></div><blockquote class="gmail_quote" style="margin:0px '
            f'0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">{html_of(TURN_MAIL)}'
            "</blockquote></div>\n")
    b = f"000000000000{n:04d}a1b2c3d4e5f6"
    head = headers(lang, n, sender="Alice Example <alice@example.test>", msgid=f"<CAF3xq{n:04d}Zq@mail.gmail.com>",
                   expect=expect, extra=["MIME-Version: 1.0", f'Content-Type: multipart/alternative; boundary="{b}"'])
    return "\n".join(head) + (f"\n\n--{b}\nContent-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: "
                              f"quoted-printable\n\n{qp(text)}\n--{b}\nContent-Type: text/html; charset=\"UTF-8\"\n"
                              f"Content-Transfer-Encoding: quoted-printable\n\n{qp(html)}\n--{b}--\n")


def outlook(lang: Lang, body: str, n: int, expect: str, *, ios: bool = False, html_only: bool = False) -> str:
    f, s, t, subj = lang.outlook
    sep = "" if ios else "________________________________\n"
    original = (f"{sep}{f}: RoboRally referee <referee@example.test>\n{s}: {lang.outlook_date}\n"
                f"{t}: Alice Example <alice@example.test>\n{subj}: {SUBJECT}\n\n{TURN_MAIL}")
    text = f"{body}\n\n{lang.outlook_ios}\n{original}" if ios else f"{body}\n\n{original}"
    html = (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body>'
            f'<div style="font-family: Aptos, sans-serif; font-size: 12pt;">{html_of(body)}</div>'
            f'<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
            f'<div id="divRplyFwdMsg" dir="ltr">{html_of(original)}</div></body></html>\n')
    b = f"_000_PAXPR{n:04d}MB1234EURP_"
    extra = ["Thread-Topic: " + SUBJECT, f"Thread-Index: AQHb{n:04d}xyzAbCdEfGhIjKlMn==", "X-MS-Has-Attach:",
             "X-MS-TNEF-Correlator:", f"Content-Language: {lang.code}-{lang.code.upper()}", "MIME-Version: 1.0"]
    msgid = f"<PAXPR{n:04d}MB1234E1A2B3C4D5E6F7@PAXPR{n:04d}MB1234.eurprd04.prod.outlook.com>"
    if html_only:
        head = headers(lang, n, sender="Alice Example <alice@example.test>", msgid=msgid, expect=expect,
                       extra=[*extra, 'Content-Type: text/html; charset="utf-8"',
                              "Content-Transfer-Encoding: base64"])
        return "\n".join(head) + f"\n\n{b64(html)}\n"
    head = headers(lang, n, sender="Alice Example <alice@example.test>", msgid=msgid, expect=expect,
                   subject=("AW: " if lang.code == "de" else "RE: ") + SUBJECT,
                   extra=[*extra, f'Content-Type: multipart/alternative; boundary="{b}"'])
    return "\n".join(head) + (f"\n\n--{b}\nContent-Type: text/plain; charset=\"utf-8\"\nContent-Transfer-Encoding: "
                              f"base64\n\n{b64(text)}\n\n--{b}\nContent-Type: text/html; charset=\"utf-8\"\n"
                              f"Content-Transfer-Encoding: base64\n\n{b64(html)}\n\n--{b}--\n")


def apple(lang: Lang, body: str, n: int, expect: str, *, iphone: bool = False) -> str:
    if iphone:
        text = f"{body}\n\n{lang.iphone}\n\n{quote(lang.apple)}\n> \n{quote(TURN_MAIL)}\n"
        mailer = "Mime-Version: 1.0 (1.0)", "X-Mailer: iPhone Mail (22B91)"
    else:
        text = f"{body}\n\n{lang.apple}\n\n{quote(TURN_MAIL)}\n"
        mailer = "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3826.200.121\\))", "X-Mailer: Apple Mail (2.3826.200.121)"
    msgid = f"<{n:04d}A1B2-C3D4-4E5F-8A9B-0C1D2E3F4A5B@example.test>"
    head = headers(lang, n, sender="Alice Example <alice@example.test>", msgid=msgid, expect=expect,
                   extra=[*mailer, 'Content-Type: text/plain; charset=utf-8', "Content-Transfer-Encoding: "
                          "quoted-printable"])
    return "\n".join(head) + f"\n\n{qp(text)}\n"


def thunderbird(lang: Lang, body: str, n: int, expect: str) -> str:
    # Thunderbird's default: the reply below the quote, format=flowed, 8bit
    text = f"{lang.thunderbird}\n{quote(TURN_MAIL)}\n\n{body}\n"
    msgid = f"<{n:04d}c0ffee-1234-4abc-9def-0123456789ab@example.test>"
    head = headers(lang, n, sender="Alice Example <alice@example.test>", msgid=msgid, expect=expect,
                   extra=["MIME-Version: 1.0", "User-Agent: Mozilla Thunderbird", f"Content-Language: {lang.code}",
                          "Content-Type: text/plain; charset=UTF-8; format=flowed", "Content-Transfer-Encoding: 8bit"])
    return "\n".join(head) + f"\n\n{text}"


def roundcube(lang: Lang, body: str, n: int, expect: str) -> str:
    text = f"{body}\n\n{lang.roundcube}\n{quote(TURN_MAIL)}\n"
    msgid = f"<{n:04d}f00d2b6c7e8a9b0c1d2e3f4a5b6c7d@example.test>"
    head = headers(lang, n, sender="alice@example.test", msgid=msgid, expect=expect,
                   extra=["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8; format=flowed",
                          "Content-Transfer-Encoding: 8bit", "User-Agent: Roundcube Webmail/1.6.9"])
    return "\n".join(head) + f"\n\n{text}"


def body_of(lang: Lang, program: str, *, signature: str = "dash") -> str:
    """Greeting, the program, a stray line, the sign-off and a signature."""
    sig = f"-- \n{lang.signature}" if signature == "dash" else f"{lang.signoff}\n{lang.signature}"
    return f"{lang.hello}\n\n{program}\n\n{lang.extra}\n\n{sig}"


CLIENTS = ["gmail", "gmail-wrapped", "outlook", "outlook-ios", "apple", "iphone", "thunderbird", "roundcube"]

#: (file name, client, language, body, expectation): refusals, each for one reason
REFUSALS = [
    ("refuse-mistyped-card", "gmail", "en", "FWD2 670, LFT 90, 3, 4, 5", "refuse: 'LFT' is not a card"),
    ("refuse-only-quoted-block", "gmail", "en", "Here you go!", "refuse: I found no orders in this mail"),
    ("refuse-mentions-reboot", "apple", "en", "FWD2 670, RT90 80, FWD1 500, RVS1 430, UTRN 10\n"
     "I think I will reboot", "refuse: mentions REBOOT"),
    ("refuse-two-blocks", "thunderbird", "de", f"{BEGIN}\n1, 4, 2, 7, 5\nEND\n{BEGIN}\n1, 2, 3, 4, 5\nEND",
     "refuse: BEGIN lines"),
    ("refuse-stale-turn", "roundcube", "en", "BEGIN RR-7 Twonky turn 3 key 8f3k2q\n1, 4, 2, 7, 5\nEND",
     "refuse: which is over"),
    ("refuse-wrong-key", "outlook", "en", "BEGIN RR-7 Twonky turn 4 key zzzzzz\n1, 4, 2, 7, 5\nEND",
     "refuse: not your key"),
    ("refuse-card-not-in-hand", "iphone", "fr", "FWD2 670, RT90 80, FWD1 500, RVS1 430, UTRN 20",
     "refuse: not in your hand"),
    ("refuse-four-registers", "gmail", "de", "1: FWD2 670\n2: RT90 80\n3: FWD1 500\n4: RVS1 430",
     "refuse: register 5"),
    ("refuse-mixed-numbering", "thunderbird", "nl", "1: FWD2 670\nRT90 80, FWD1 500, RVS1 430, UTRN 10",
     "refuse: number every register or list all the cards"),
    ("refuse-html-only-typo", "outlook-html", "es", "FWD2 670, RT90 80, FWD1 500, RVS1 430, UTRN 1O",
     "refuse: is not a card"),
    ("refuse-block-with-prose", "roundcube", "it", f"{BEGIN}\n1, 4, 2, 7, 5\nciao a tutti\nEND",
     "refuse: could not read this line"),
]


def build(client: str, lang: Lang, body: str, n: int, expect: str) -> str:
    if client == "gmail":
        return gmail(lang, body, n, expect)
    if client == "gmail-wrapped":
        return gmail(lang, body, n, expect, wrapped=True)
    if client == "outlook":
        return outlook(lang, body, n, expect)
    if client == "outlook-ios":
        return outlook(lang, body, n, expect, ios=True)
    if client == "outlook-html":
        return outlook(lang, body, n, expect, html_only=True)
    if client == "apple":
        return apple(lang, body, n, expect)
    if client == "iphone":
        return apple(lang, body, n, expect, iphone=True)
    if client == "thunderbird":
        return thunderbird(lang, body, n, expect)
    return roundcube(lang, body, n, expect)


def main() -> None:
    for old in HERE.glob("*.eml"):
        old.unlink()
    by_code = {lang.code: lang for lang in LANGS}
    n = 0
    for lang in LANGS:
        for client in CLIENTS:
            n += 1
            program = PROGRAMS[n % len(PROGRAMS)]
            sign = "dash" if client in ("roundcube", "thunderbird") or n % 3 == 0 else "plain"
            body = body_of(lang, program, signature=sign)
            if client in ("outlook-ios", "iphone"):  # phones: no signature but the app's own line
                body = f"{lang.hello}\n\n{program}\n\n{lang.extra}"
            raw = build(client, lang, body, n, "accept")
            (HERE / f"{lang.code}-{client}.eml").write_bytes(raw.replace("\n", "\r\n").encode())
    for lang in LANGS[:3]:  # Outlook on the web in HTML only
        n += 1
        raw = build("outlook-html", lang, body_of(lang, PROGRAMS[0], signature="plain"), n, "accept")
        (HERE / f"{lang.code}-outlook-html.eml").write_bytes(raw.replace("\n", "\r\n").encode())
    for name, client, code, body, expect in REFUSALS:
        n += 1
        lang = by_code[code]
        if name == "refuse-only-quoted-block":  # the player filled in the quoted template
            filled = TURN_MAIL.replace("1:\n2:\n3:\n4:\n5:", "1: FWD2 670\n2: RT90 80\n3: 2\n4: 7\n5: 5")
            raw = gmail(lang, body, n, expect, original=filled)
        else:
            raw = build(client, lang, f"{lang.hello}\n\n{body}\n\n{lang.signoff}\n{lang.signature}", n, expect)
        (HERE / f"{name}.eml").write_bytes(raw.replace("\n", "\r\n").encode())


if __name__ == "__main__":
    main()
