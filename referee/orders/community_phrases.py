"""The everyday words around commands (pure): greetings and sign-offs, "unsubscribe", "I want to join".

A command mail is written like any mail: "Hi," above ``LIST``, "Thanks, Alice" below it. Those lines are
left out as they are in order mails (:mod:`referee.orders.community`). An observer who writes "stop sending
me these" (or "abmelden", "désabonner", "darme de baja", "afmelden"...) means UNOBSERVE; a stranger who
writes "I want to join" is shown LIST and JOIN first. The words are those of the languages the referee's
players write in most: English, German, French, Spanish, Dutch (and a few Italian and Portuguese ones).
"""

from __future__ import annotations

import re
import unicodedata

_GREETING_WORDS = (
    r"hi|hii|hello|hey|hiya|howdy|dear|greetings|good\s+(?:morning|afternoon|evening|day)|yo|"
    r"hallo|moin|servus|gruezi|grüezi|gruss\s+gott|grüß\s+gott|liebe[rs]?|sehr\s+geehrte[rs]?|guten\s+(?:morgen|tag|abend)|"
    r"bonjour|bonsoir|salut|coucou|cher|chère|chers|madame|monsieur|"
    r"hola|buenos\s+d[ií]as|buenas(?:\s+tardes|\s+noches)?|estimad[oa]s?|querid[oa]s?|"
    r"hoi|hai|beste|dag|goedemorgen|goedemiddag|goedenavond|"
    r"ciao|buongiorno|salve|ol[aá]|bom\s+dia|boa\s+tarde|"
    r"hej|hejsan|cze[sś][cć]|dzie[nń]\s+dobry"
)
_GREETING = re.compile(rf"^(?:{_GREETING_WORDS})\b[^.?]{{0,40}}?[,!:.]?$", re.IGNORECASE)

_SIGN_OFF_WORDS = (
    r"thanks?|thank\s+you|thx|ty|cheers|regards|best|best\s+regards|kind\s+regards|warm\s+regards|"
    r"all\s+the\s+best|sincerely|yours(?:\s+\w+)?|take\s+care|bye|see\s+you|ciao|later|greetings|"
    r"danke(?:\s+sch[oö]n)?|vielen\s+dank|gr[uü](?:ß|ss|e)(?:e)?|viele\s+gr[uü](?:ß|ss)e|liebe\s+gr[uü](?:ß|ss)e|"
    r"lg|mfg|mit\s+freundlichen\s+gr[uü](?:ß|ss)en|bis\s+bald|tsch[uü]ss|"
    r"merci(?:\s+beaucoup)?|cordialement|bien\s+[aà]\s+vous|amiti[eé]s|[aà]\s+bient[oô]t|bisous|bonne\s+journ[eé]e|"
    r"gracias|muchas\s+gracias|saludos|un\s+saludo|atentamente|hasta\s+luego|abrazos|"
    r"dank(?:\s+je(?:\s+wel)?|\s+u(?:\s+wel)?)?|bedankt|groeten|groetjes|met\s+vriendelijke\s+groet(?:en)?|mvg|"
    r"grazie|saluti|obrigad[oa]|abra[cç]os|"
    r"groet|pozdrawiam|pozdrowienia|h[aä]lsningar|mvh|med\s+v[aä]nliga\s+h[aä]lsningar|tack"
)
_SIGN_OFF = re.compile(rf"^(?:{_SIGN_OFF_WORDS})\b[^.?]{{0,40}}?[,!.]?$", re.IGNORECASE)
#: "Sent from my iPhone", "Von meinem iPhone gesendet", "Envoyé de mon iPhone", "Enviado desde mi...".
_SENT_FROM = re.compile(r"^(?:sent\s+from\s+my|get\s+outlook\s+for|von\s+meinem|envoy[eé]\s+de\s+mon|"
                        r"enviado\s+desde\s+mi|verzonden\s+(?:vanaf|met)\s+mijn|inviato\s+da)\b", re.IGNORECASE)
#: a name under a mail: one to three words, each starting with a capital (or an initial: "A.", "-A")
_NAME = re.compile(r"^[-–—~]?\s*(?:[A-ZÀ-ÖØ-Þ][\w'’.-]{0,20}|[A-ZÀ-ÖØ-Þ]\.)(?:\s+(?:[A-ZÀ-ÖØ-Þ][\w'’.-]{0,20}|"
                   r"[A-ZÀ-ÖØ-Þ]\.|van|von|de|der|den|la|le|da|di|del|du|ten|ter)){0,3}$")


def is_greeting(line: str) -> bool:
    """"Hi,", "Hello Referee!", "Liebe Leute,", "Bonjour à tous", "Hola:"."""
    text = " ".join(line.split())
    return 0 < len(text) <= 50 and _GREETING.match(text) is not None


def is_sign_off(line: str) -> bool:
    """"Thanks,", "Cheers", "Best regards, Alice", "Viele Grüße", "Cordialement", "-- " (a signature),
    "Sent from my iPhone": everything from such a line on is left out."""
    text = " ".join(line.split())
    if text in ("--", "-- ", "—", "__"):
        return True
    return 0 < len(text) <= 60 and (_SIGN_OFF.match(text) is not None or _SENT_FROM.match(text) is not None)


def is_name(line: str) -> bool:
    """A short line that reads as the writer's name ("Alice", "Alice Example", "-A.")."""
    text = " ".join(line.split())
    return 0 < len(text) <= 40 and _NAME.match(text) is not None and not text.isupper()


# -- "stop sending me these" -------------------------------------------------------------------------------
_STOP = re.compile(
    r"\b(?:unsubscribe|unsubscribing|un-subscribe|opt[\s-]?out|remove\s+me|take\s+me\s+off|stop(?:p|pen)?|"
    r"no\s+more\s+(?:e-?mails?|mails?|messages)|leave\s+(?:this|the)\s+list|cancel\s+(?:my\s+)?subscription|"
    r"abmelden|abbestellen|austragen|abmeldung|keine\s+(?:e-?mails?|mails|nachrichten)\s+mehr|"
    r"d[eé]sabonner|d[eé]sinscrire|d[eé]sabonnement|d[eé]sinscription|arr[eê]te[rz]?|retirez[-\s]moi|"
    r"ne\s+plus\s+recevoir|"
    r"darme\s+de\s+baja|dar(?:se)?\s+de\s+baja|baja|desuscribir(?:me)?|cancelar\s+(?:la\s+)?suscripci[oó]n|"
    r"no\s+m[aá]s\s+correos|quitarme|"
    r"afmelden|uitschrijven|meld\s+me\s+af|schrijf\s+me\s+uit|geen\s+(?:e-?mails?|mails)\s+meer|"
    r"disiscrivi(?:mi)?|cancella(?:mi)?|descadastrar)\b",
    re.IGNORECASE)
#: a stop request is short: a few lines of a few words
_STOP_CHARS = 100


def _plain(text: str) -> str:
    return unicodedata.normalize("NFC", " ".join(text.split()))


def asks_to_stop(lines: list[str], subject: str = "") -> bool:
    """Whether a short mail (its own lines, greetings and sign-offs left out) or its subject asks for no more
    mail: "unsubscribe", "stop", "remove me", "stop sending me these", "bitte abmelden", "désabonner",
    "darme de baja", "afmelden"... A long mail is never taken for one (it says more than that)."""
    own = [line for line in (_plain(t) for t in content_lines(lines)) if line]
    text = " ".join(own)
    if len(text) > _STOP_CHARS or len(own) > 3:
        return False
    if text:
        return _STOP.search(text) is not None
    topic = re.sub(r"^(?:(?:re|aw|sv|wg|fw|fwd|tr|rv)\s*:\s*)+", "", _plain(subject), flags=re.IGNORECASE)
    return len(topic) <= 60 and _STOP.search(topic) is not None


# -- "I want to join" ---------------------------------------------------------------------------------------
_JOIN = re.compile(
    r"\b(?:join|joining|sign\s*(?:me\s+)?up|signup|play|take\s+part|participate|"
    r"mitspielen|mitmachen|teilnehmen|anmelden|beitreten|"
    r"rejoindre|participer|jouer|inscri(?:re|s|ption)|"
    r"unirme|unirse|jugar|participar|apuntarme|inscribirme|"
    r"meedoen|meespelen|deelnemen|aanmelden|"
    r"partecipare|giocare)\b",
    re.IGNORECASE)


def wants_to_join(lines: list[str], subject: str = "") -> bool:
    """Whether a stranger's short mail asks to play: "I want to join", "Can I play?", "Ich möchte mitspielen",
    "Je voudrais participer", "Quiero unirme", "Ik wil meedoen"."""
    text = " ".join(_plain(t) for t in content_lines(lines))
    return bool(_JOIN.search(text[:400]) or _JOIN.search(_plain(subject)[:120]))


def content_lines(lines: list[str]) -> list[str]:
    """``lines`` less a greeting above and a sign-off (with everything after it) and a name below."""
    out = [t for t in lines]
    while out and (not out[0].strip() or is_greeting(out[0])):
        out.pop(0)
    for i, text in enumerate(out):
        if is_sign_off(text):
            out = out[:i]
            break
    while out and (not out[-1].strip() or is_name(out[-1])):
        out.pop()
    return out
