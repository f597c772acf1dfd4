"""Serialising an outgoing mail to its bytes on the wire, cheaply.

A turn's pictures and GIF go into every player's mail: the same MIME part, built once a turn by
:mod:`referee.render.mail` and marked shared (:func:`share`). :func:`wire_bytes` writes a mail as
``EmailMessage.as_bytes(policy=SMTP)`` does, byte for byte, but writes a shared part's bytes once and
reuses them in every mail that carries it, and folds a header object once (:func:`folded`: the objects
of headers seen before are shared between mails, see :mod:`referee.render.mail`). :func:`split_head`
cuts the serialised mail into its top-level header lines and the rest, so a header can be changed (the Message-ID, see
:mod:`referee.store.msgids`) without serialising the body again.
"""

from __future__ import annotations

import re
from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage, Message
from functools import lru_cache
from io import BytesIO

_NLCRE = re.compile(r"\r\n|\r|\n")  # the line ends email.generator splits text on (its NLCRE)

_CACHE = "_referee_wire"
_FOLDED = "_referee_folded"


def folded(pol: policy.Policy, name: str, value: object) -> bytes:
    """``pol.fold_binary(name, value)``. Under the SMTP policy a header object's bytes (it is immutable, and
    often the same object in every mail of a turn) are kept on it, per name, and reused."""
    if pol is not policy.SMTP or not hasattr(value, "fold"):  # a plain string: a parsed mail's raw header
        return pol.fold_binary(name, value)  # type: ignore[arg-type]
    cache: dict[str, bytes] | None = getattr(value, _FOLDED, None)
    if cache is None:
        cache = {}
        try:
            setattr(value, _FOLDED, cache)
        except AttributeError:  # a header class without a __dict__: fold every time
            return pol.fold_binary(name, value)  # type: ignore[arg-type]
    data = cache.get(name)
    if data is None:
        data = cache[name] = pol.fold_binary(name, value)  # type: ignore[arg-type]
    return data


@lru_cache(maxsize=16)
def _policy_key(pol: policy.Policy) -> str:
    """What makes a policy's bytes differ (its settings), worked out once per policy object."""
    return repr(pol)


def share(part: Message) -> Message:
    """Mark ``part`` as shared between mails: its bytes are written once (it must not change after)."""
    setattr(part, _CACHE, {})
    return part


class _SharingGenerator(BytesGenerator):
    """A BytesGenerator that writes each shared part once per policy and then reuses its bytes."""

    def flatten(self, msg: Message, unixfrom: bool = False, linesep: str | None = None) -> None:
        """As ``Generator.flatten``; but a part is written with the generator's own policy, not a copy of it
        made for the same line ends (as ``_handle_multipart`` asks for every part): the header bytes kept
        on header objects and the bytes of shared parts are found by that policy."""
        pol = msg.policy if self.policy is None else self.policy
        if linesep is not None and linesep == pol.linesep:
            linesep = None
        super().flatten(msg, unixfrom, linesep)

    def _write_lines(self, lines: str) -> None:
        """As ``Generator._write_lines`` (line ends made the policy's), in one write, not two a line."""
        if not lines:
            return
        nl: str = self._NL  # type: ignore[attr-defined]
        if "\r" not in lines:  # line ends all "\n" (as the email package writes bodies): no split needed
            self.write(lines.replace("\n", nl) if nl != "\n" else lines)
            return
        parts = _NLCRE.split(lines)
        self.write(nl.join(parts[:-1]) + nl + parts[-1] if len(parts) > 1 else parts[-1])

    def _write_headers(self, msg: Message) -> None:
        """As ``BytesGenerator._write_headers``, each header's bytes from :func:`folded`."""
        for name, value in msg.raw_items():
            self._fp.write(folded(self.policy, name, value))  # type: ignore[has-type,arg-type]
        self.write(self._NL)  # type: ignore[attr-defined]

    def _write(self, msg: Message) -> None:
        cache: dict[str, bytes] | None = getattr(msg, _CACHE, None)
        if cache is None:
            super()._write(msg)  # type: ignore[misc]
            return
        key = f"{_policy_key(self.policy)}\0{self._mangle_from_}"  # type: ignore[attr-defined]
        data = cache.get(key)
        if data is None:
            outer = self._fp  # type: ignore[has-type]
            self._fp = BytesIO()
            try:
                super()._write(msg)  # type: ignore[misc]
                data = self._fp.getvalue()
            finally:
                self._fp = outer
            cache[key] = data
        self._fp.write(data)


def wire_bytes(message: Message) -> bytes:
    """``message.as_bytes(policy=policy.SMTP)``, with shared parts written once."""
    fp = BytesIO()
    _SharingGenerator(fp, mangle_from_=False, policy=policy.SMTP).flatten(message, unixfrom=False)
    return fp.getvalue()


def head_lines(message: Message, only: str | None = None) -> list[tuple[str, bytes]]:
    """The top-level header lines of ``message`` as the SMTP policy writes them: (name, folded bytes);
    ``only``: just the headers of that (lower-case) name."""
    return [(name, folded(policy.SMTP, name, value)) for name, value in message.raw_items()
            if only is None or name.lower() == only]


def split_head(message: EmailMessage, raw: bytes) -> tuple[list[tuple[str, bytes]], bytes] | None:
    """The top-level header lines of ``raw`` (``message`` serialised, see :func:`head_lines`) and what
    follows them, or None where the headers written are not those (then serialise again instead)."""
    lines = head_lines(message)
    head = b"".join(line for _, line in lines)
    if not raw.startswith(head + b"\r\n"):
        return None
    return lines, raw[len(head):]
