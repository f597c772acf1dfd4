"""What mail programs add around a player's own words: attribution lines, pasted originals, "Sent from".

Used by :mod:`.extract` on lines already cleaned of odd spaces. The patterns cover what the common
clients write (Gmail, Outlook, Apple Mail and iOS, Roundcube, Thunderbird) in English, German, French,
Dutch, Spanish, Italian, Portuguese, Polish and Swedish, together with the attribution and "sent from"
patterns of the mail-parser-reply library (:data:`mailparser_reply.constants.MAIL_LANGUAGES`).

* :func:`attribution_at`: an attribution ("On ... wrote:", "Am ... schrieb ...:", "Le ... a écrit :"),
  also wrapped over two or three lines, starting at a given line.
* :func:`is_original_marker` / :func:`header_block_at`: the start of an original pasted without
  quoting ("-----Original Message-----", a "From:" / "Sent:" block in any of these languages).
* :func:`is_sent_from`: the line a phone or app puts under the text ("Sent from my iPhone",
  "Get Outlook for iOS<https://aka.ms/o0ukef>", "Von meinem iPhone gesendet").
"""

from __future__ import annotations

import re
from functools import cache

from mailparser_reply.constants import MAIL_LANGUAGES

#: the verbs that close an attribution, before its colon
_VERBS = (r"wrote|schrieb|a\s+écrit|escribió|ha\s+scritto|schreef|geschreven|skrev|escreveu|"
          r"napisał\(a\)|napisała|napisał|pisze|kirjoitti|написал\(а\)")
#: an attribution's last line: one of the verbs, then at most a name or address, then a colon
_CLOSING = re.compile(rf"(?:^|\s)(?:{_VERBS})\b[^:]{{0,120}}:$|(?:^|\s)(?:{_VERBS})\s*:$", re.IGNORECASE)
#: how attributions begin, by language
_OPENING = re.compile(r"^(?:On|Am|Le|El|Il(?:\s+giorno)?|In\s+data|Op|Em|No\s+dia|W\s+dniu|Dnia|Den|"
                      r"\d{1,4}[\s./-])", re.IGNORECASE)
#: attributions that name the writer first and end with the date: "<name> schrieb am <date>:"
_WHOLE = re.compile(r"^(?:Wiadomość napisana przez .+ w dniu .+|.+ schrieb am .+\d.*|.+ a écrit le .+\d.*|"
                    r".+ wrote on .+\d.*|.+ escribió el .+\d.*|.+ ha scritto il .+\d.*|.+ schreef op .+\d.*)\s*:$",
                    re.IGNORECASE)
#: a date or time, or an address, as attributions carry
_DATED = re.compile(r"\d{1,2}[:.]\d{2}|\d{4}|@")

_ORIGINAL = re.compile(
    r"^(?:-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Oorspronkelijk bericht|"
    r"Messaggio originale|Mensaje original|Mensagem original|Wiadomość oryginalna|Ursprungligt meddelande|"
    r"Forwarded message|Weitergeleitete Nachricht|Message transféré|Doorgestuurd bericht|"
    r"Messaggio inoltrato|Mensaje reenviado|Mensagem encaminhada|Wiadomość przekazana|"
    r"Vidarebefordrat meddelande)\s*-{2,}|"
    r"Begin forwarded message:|Anfang der weitergeleiteten Nachricht:|Début du message réexpédié :?|"
    r"Begin doorgestuurd bericht:|Inizio messaggio inoltrato:|Inicio del mensaje reenviado:|"
    r"Início da mensagem reencaminhada:)\s*$", re.IGNORECASE)
_UNDERSCORES = re.compile(r"^_{10,}\s*$")
_HEADER_FROM = re.compile(r"^\*?(?:From|Von|De|Van|Da|Od|Från|Fra)\s*:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(r"^\*?(?:Sent|Date|To|Gesendet|Datum|An|Envoyé|Date|À|Verzonden|Aan|Inviato|Data|"
                          r"Enviado|Fecha|Para|Enviada|Wysłano|Wysłane|Do|Skickat|Till|Sendt|Til)\s*:\*?\s",
                          re.IGNORECASE)

_SENT_FROM = re.compile(
    r"^(?:Sent from (?:my )?\S.{0,60}|Get Outlook for \S.{0,80}|Sent from Outlook.{0,80}|"
    r"Von meinem \S.{0,40} gesendet|Gesendet von \S.{0,60}|Von Outlook für \S.{0,60} gesendet|"
    r"Envoyé (?:de|depuis) (?:mon )?\S.{0,60}|Télécharger Outlook pour \S.{0,60}|"
    r"Verstuurd (?:vanaf|met) (?:mijn )?\S.{0,60}|Outlook voor \S.{0,30} downloaden.{0,60}|"
    r"Enviado (?:desde|con|de|do) (?:mi |meu |o meu )?\S.{0,60}|Obtener Outlook para \S.{0,60}|"
    r"Inviato (?:da|dal mio) \S.{0,60}|Scarica Outlook per \S.{0,60}|"
    r"Wysłane z (?:mojego )?\S.{0,60}|Wysłano z (?:mojego )?\S.{0,60}|"
    r"Skickat från (?:min )?\S.{0,60}|Hämta Outlook för \S.{0,60}|Skaffa Outlook för \S.{0,60}|"
    r"Outlook für \S.{0,40} beziehen|Obter o Outlook para \S.{0,60}|Pobierz aplikację Outlook \S.{0,80})$",
    re.IGNORECASE)


@cache
def _library_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """mail-parser-reply's attribution ("wrote_header") and "sent from" patterns, all languages."""
    wrote = [lang["wrote_header"] for lang in MAIL_LANGUAGES.values() if lang.get("wrote_header")]
    sent = [lang["sent_from"] for lang in MAIL_LANGUAGES.values() if lang.get("sent_from")]
    return (re.compile("|".join(f"(?:{p})" for p in wrote), re.IGNORECASE | re.MULTILINE),
            re.compile(r"^(?:" + "|".join(f"(?:{p})" for p in sent) + r")\b.{0,80}$", re.IGNORECASE))


def _is_attribution(text: str, *, opened: bool = False) -> bool:
    """``opened``: only one that opens as attributions do (not the tail of a wrapped one)."""
    if len(text) > 400:
        return False
    if _CLOSING.search(text) and (_OPENING.match(text) or (not opened and _DATED.search(text))):
        return True
    if _WHOLE.match(text):
        return True
    wrote, _ = _library_patterns()
    return bool(wrote.fullmatch(text))


def attribution_at(lines: list[str], i: int, stop: int) -> int | None:
    """If an attribution begins at ``lines[i]`` (one to three unquoted lines), the index of its last line.
    One wrapped over several lines must open as attributions do ("On", "Am", "Le", a date...), so a
    player's line right above an attribution is never taken for part of it."""
    if not lines[i] or lines[i].startswith(">"):
        return None
    for last in range(i, min(i + 3, stop)):
        if not lines[last] or lines[last].startswith(">"):
            return None
        if not lines[last].endswith(":"):
            continue
        if last == i:
            if _is_attribution(lines[i]):
                return i
            continue
        if _is_attribution(lines[last], opened=True) or not _OPENING.match(lines[i]):
            return None  # the attribution starts further down (or this is no attribution)
        if _is_attribution(" ".join(lines[i:last + 1])):
            return last
    return None


def is_original_marker(line: str) -> bool:
    """An "-----Original Message-----" line (or a forwarded-message line) in one of the languages."""
    return bool(_ORIGINAL.match(line))


def header_block_at(lines: list[str], i: int) -> bool:
    """Whether a pasted original's header block (From: ... Sent: ...) starts at ``lines[i]``, or at the
    line of underscores Outlook puts above it."""
    line = lines[i]
    if _UNDERSCORES.match(line):
        return any(_HEADER_FROM.match(x) for x in lines[i + 1:i + 3])
    return bool(_HEADER_FROM.match(line)) and any(_HEADER_NEXT.match(x) for x in lines[i + 1:i + 5])


def is_sent_from(line: str) -> bool:
    """The line a phone or a mail app puts under the text ("Sent from my iPhone")."""
    if len(line) > 160:
        return False
    _, sent = _library_patterns()
    return bool(_SENT_FROM.match(line) or sent.match(line))
