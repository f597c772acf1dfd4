"""One resolved turn rendered once for everybody: the report, the pictures (PNG), the key to them and the
animation (GIF).

Everything here is shared by every player's mail, so it is drawn once per turn: the floor of the course is
kept between turns (see :func:`.frames.floor`), the key is kept with it, and the GIF is made of the
stage pictures already drawn plus in-between frames.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from ..engine import Board, Card, Robot, TurnResult
from ..engine.geometry import Square
from ..engine.state import BoardState
from .crops import robot_crops, robot_squares
from .frames import Frame, moments, turn_frames
from .gif import gif_bytes
from .kept import kept_png
from .layout import CELL, Layout
from .legend import legend_png
from .mail import Attachment, Picture, turn_mail
from .motion import animated
from .players import Player
from .png import png_bytes
from .story import stories
from .tables import TurnReport, build_private, build_report


@dataclass(slots=True)
class RenderedTurn:
    report: TurnReport
    frames: list[Frame]
    pictures: list[Picture]
    #: makes the animation (:attr:`gif`), the first time a mail or the archive asks for it
    animate: Callable[[], Attachment]
    flag_total: int
    #: the key to the pictures (the course's elements and the marks)
    legend: Picture | None = None
    #: robot -> its own story of the turn (:mod:`.story`), for the top of its player's mail
    stories: dict[str, list[str]] = field(default_factory=dict)
    #: how the pictures are laid out, and where each robot is in each (for :meth:`crops`)
    layout: Layout | None = None
    squares: list[dict[str, Square]] = field(default_factory=list)
    #: robot -> its crops, cut once
    _crops: dict[str, dict[str, Picture]] = field(default_factory=dict)
    _gif: Attachment | None = None
    #: the most the text, HTML and headers of a mail of this turn took so far (:func:`within_budget`)
    text_size: int = 0

    def crops(self, robot: str) -> dict[str, Picture]:
        """Picture key -> that picture cut around ``robot`` (:mod:`.crops`; empty for a board read whole)."""
        if self.layout is None or not self.squares:
            return {}
        if robot not in self._crops:
            stem = file_stem(self.report.game, self.report.turn)
            self._crops[robot] = robot_crops(self.frames, self.layout, self.squares, robot, stem)
        return self._crops[robot]

    @property
    def gif(self) -> Attachment:
        """The turn animated: made once, when first asked for (no mail of a turn may want it)."""
        if self._gif is None:
            self._gif = self.animate()
        return self._gif


#: what a seat's turn mails may carry (``SET PICTURES``): everything, the boards and key without the
#: animation, or text only
PICTURES = ("all", "stages", "none")
#: a turn mail is kept under this many bytes as it travels (issue 42: 250 KB for 8 robots on factory)
MAIL_BUDGET = 250 * 1024
#: what the text and HTML of a turn mail take, at first guess, before its pictures are counted
TEXT_GUESS = 48 * 1024
#: bytes of the budget kept for what :func:`travelling_size` does not count (MIME boundaries, header folding)
#: and the outbox adds (stamped headers, a DKIM signature)
SPARE = 3 * 1024
#: room left for what one player's text differs by from another's (her hand, her story)
TEXT_MARGIN = 4 * 1024


def _travelling(data: bytes) -> int:
    """Bytes a picture takes in a mail: base64, 76 characters and a line end a line."""
    chars = (len(data) + 2) // 3 * 4
    return chars + chars // 76 + 1 + 300  # and its part's headers


@dataclass(slots=True)
class Chosen:
    """The pictures one mail carries, and the captions of those left out to keep it under its budget."""

    pictures: list[Picture]
    gif: Attachment | None
    legend: Picture | None
    left_out: list[str] = field(default_factory=list)
    #: picture key -> that picture cut around the reader's robot (:meth:`RenderedTurn.crops`)
    crops: dict[str, Picture] = field(default_factory=dict)

    def note(self, archive_url: str | None = None) -> str | None:
        """What the mail says about the pictures it left out (None: none left out)."""
        if not self.left_out:
            return None
        pieces = "; where a whole board is left out, the piece around your robot is shown" if self.crops else ""
        where = f" This turn's web page shows every picture: {archive_url}" if archive_url else ""
        return (f"To keep this mail under {MAIL_BUDGET // 1024} KB, it leaves out {_listed(self.left_out)}{pieces}; "
                f"the tables say what they show.{where}")


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def choose_pictures(rendered: RenderedTurn, pictures: str = "all", room: int = MAIL_BUDGET - TEXT_GUESS,
                    crops: Mapping[str, Picture] | None = None) -> Chosen:
    """The pictures a mail carries at a seat's ``pictures`` setting, within ``room`` bytes as they travel.

    ``none``: none; ``stages``: the boards, the key and ``crops`` (the boards cut around the reader's robot,
    on a wide course); ``all``: the animation too. What does not fit is left out, in this order of keeping:
    the crops (small, and what a phone shows), the end of the turn (or the last board), the key, the boards
    of the stages in turn, the start, the animation (the boards show each stage; it shows them moving).
    """
    if pictures not in PICTURES:
        raise ValueError(f"pictures {pictures!r}: one of {', '.join(PICTURES)}")
    if pictures == "none":
        return Chosen([], None, None)
    boards = list(rendered.pictures)
    in_order = boards[-1:] + boards[1:-1] + boards[:1][: len(boards) - 1]
    pieces = dict(crops or {})
    order: list[Picture] = [pieces[b.key] for b in in_order if b.key in pieces]
    order += boards[-1:]
    if rendered.legend is not None:
        order.append(rendered.legend)
    order += in_order[1:]
    kept: set[int] = set()
    left: list[str] = []
    for item in order:
        size = _travelling(item.data)
        if size <= room:
            room -= size
            kept.add(id(item))
        else:
            left.append(_caption(item, rendered))
    gif = None
    if pictures == "all":
        # its first frame is the first board, packed by LZW, which packs less than the PNG's deflate: where
        # that board's PNG would not fit, the animation is not made to find out it does not either
        if (boards and _travelling(boards[0].data) > room) or _travelling(rendered.gif.data) > room:
            left.append("the animation")
        else:
            gif = rendered.gif
    return Chosen([p for p in boards if id(p) in kept], gif,
                  rendered.legend if rendered.legend is not None and id(rendered.legend) in kept else None,
                  [c for c in _captions(rendered, pieces) if c in left],
                  {k: p for k, p in pieces.items() if id(p) in kept})


def _caption(item: Picture, rendered: RenderedTurn) -> str:
    if item is rendered.legend:
        return "the key to the pictures"
    key, _, robot = item.key.partition("-around-")
    if robot:   # a crop: the picture of ``key`` cut around the reader's robot
        return _board_caption(key, item).replace("the board", "the piece around your robot of the board", 1)
    return _board_caption(key, item)


def _board_caption(key: str, item: Picture) -> str:
    if key == "start":
        return "the board at the start"
    if key == "end":
        return "the board at the end"
    if key.startswith("stage"):
        return f"the board after stage {key[5:]}"
    return f"the picture {item.filename}"


def _captions(rendered: RenderedTurn, crops: Mapping[str, Picture]) -> list[str]:
    """Every caption in the mail's own order (the boards in turn, each after its crop, the key, the animation)."""
    items = [x for p in rendered.pictures for x in ([crops[p.key]] if p.key in crops else []) + [p]]
    items += [rendered.legend] if rendered.legend else []
    return [*(_caption(i, rendered) for i in items), "the animation"]


def travelling_size(msg: EmailMessage) -> int:
    """About the bytes ``msg`` takes as it travels (its parts' payloads and headers), without writing it."""
    total = 0
    for part in msg.walk():
        total += sum(len(k) + len(str(v)) + 4 for k, v in part.items())
        payload = part.get_payload()
        if isinstance(payload, str):
            total += len(payload)
    return total


def within_budget(rendered: RenderedTurn, pictures: str, build: Callable[[Chosen], EmailMessage],
                  budget: int | None = MAIL_BUDGET, crops: Mapping[str, Picture] | None = None) -> EmailMessage:
    """The mail ``build`` makes of the pictures chosen at ``pictures`` (:func:`choose_pictures`), kept under
    ``budget`` bytes. The room for pictures is the budget less the text, as the turn's mails before this one
    had it (:attr:`RenderedTurn.text_size`, with a margin); the first mail's text is guessed at, and that
    mail built again when the pictures chosen for the room its text really left differ. Any mail that came
    out heavier than the budget is built again with as much less room."""
    if budget is None:   # no limit: everything the setting takes
        return build(choose_pictures(rendered, pictures, 1 << 62, crops))
    budget -= SPARE
    known = rendered.text_size
    room = budget - (known + TEXT_MARGIN if known else TEXT_GUESS)
    chosen = choose_pictures(rendered, pictures, room, crops)
    msg = build(chosen)
    size = travelling_size(msg)
    text = size - _carried(chosen)
    rendered.text_size = max(known, text)
    if not known:   # the first mail of the turn: the room its text really left (less what the note may add)
        room = budget - text - TEXT_MARGIN // 4
        again = choose_pictures(rendered, pictures, room, crops)
        if again.left_out != chosen.left_out:
            chosen, msg = again, build(again)
            size = travelling_size(msg)
    over = size - budget
    while over > 0 and (chosen.pictures or chosen.gif or chosen.legend or chosen.crops):
        room -= over
        chosen = choose_pictures(rendered, pictures, room, crops)
        msg = build(chosen)
        over = travelling_size(msg) - budget
    return msg


def _carried(chosen: Chosen) -> int:
    """What the pictures of ``chosen`` take in a mail."""
    items = [*chosen.pictures, *chosen.crops.values(), *([chosen.legend] if chosen.legend else []),
             *([chosen.gif] if chosen.gif else [])]
    return sum(_travelling(i.data) for i in items)


def light_turn_mail(rendered: RenderedTurn, pictures: str = "all", *, notice: str | None = None,
                    crops: Mapping[str, Picture] | None = None, budget: int | None = MAIL_BUDGET,
                    **kwargs: Any) -> EmailMessage:
    """:func:`.mail.turn_mail` of the turn's report with the pictures (and the reader's ``crops``) chosen at
    ``pictures`` and under :data:`MAIL_BUDGET` (:func:`within_budget`); what was left out is said after
    ``notice``."""
    def build(chosen: Chosen) -> EmailMessage:
        said = "\n\n".join(n for n in (notice, chosen.note(rendered.report.archive_url)) if n) or None
        return turn_mail(report=rendered.report, pictures=chosen.pictures, gif=chosen.gif, legend=chosen.legend,
                         notice=said, crops=chosen.crops, **kwargs)

    return within_budget(rendered, pictures, build, budget, crops)


def file_stem(game: str, turn: int) -> str:
    return f"{game}-turn{turn}".replace("/", "-").replace(" ", "-")


def legend_picture(board: Board, stem: str, cell: int = CELL) -> Picture:
    """The key as an inline picture (its PNG made once per board and cell size, and kept on disk for the
    next process: :mod:`.kept`)."""
    return Picture("legend", f"{stem}-key.png", kept_png(board, cell, "key", lambda: legend_png(board, cell)))


def render_turn(board: Board, result: TurnResult, players: Sequence[Player], game: str, turn: int,
                cell: int = CELL, board_before: BoardState | None = None) -> RenderedTurn:
    """Everything every player's mail shares: drawn once per turn. ``board_before``: what the board's elements
    remembered as the turn began (pistons, barricades...), so each picture shows them as they were then."""
    report = build_report(board, result, players, game, turn)
    title = f"{game} turn {turn}"
    at = moments(board, result.phases_run, result.end_of_turn, result.events, board_before)
    frames = turn_frames(board, result.frames, players, result.phases_run, result.end_of_turn, title=title,
                         cell=cell, events=result.events, moments=at)
    stem = file_stem(game, turn)
    pictures = [Picture(f.key, f"{stem}-{f.key}.png", png_bytes(f.image)) for f in frames]

    def animate() -> Attachment:
        images, durations = animated(board, frames, result.frames, result.events, players, title, cell, at,
                                     reuse=True)
        return Attachment(f"{stem}.gif", gif_bytes(images, durations), "image", "gif")

    told = stories(board, result, turn, report.label_of)
    return RenderedTurn(report, frames, pictures, animate, board.flag_count, legend_picture(board, stem, cell),
                        told, Layout(board.width, board.height, cell), robot_squares(result.frames))


def player_mail(rendered: RenderedTurn, player: Player, *, sender: str, recipient: str, subject: str, domain: str,
                hand: Sequence[Card] = (), locked: Mapping[int, Card] | None = None, order_template: str = "",
                robot: Robot | None = None, deadline: str | None = None,
                headers: Mapping[str, str] | None = None,
                new_options: Sequence[tuple[str, str, list[str]]] = (), pictures: str = "all",
                budget: int | None = MAIL_BUDGET) -> EmailMessage:
    """The turn mail of one player: the shared report and pictures, and their own next hand. ``new_options``:
    (card, what it does, its order lines) of each option card the robot got in the turn. ``pictures``: the
    seat's setting (:func:`choose_pictures`); the mail is kept under ``budget`` bytes (None: no limit)."""
    private = build_private(player, rendered.report.turn + 1, hand, locked or {}, order_template, robot,
                            rendered.flag_total, deadline)
    private.story = list(rendered.stories.get(player.robot, []))
    private.new_options = list(new_options)

    return light_turn_mail(rendered, pictures, sender=sender, recipient=recipient, subject=subject, domain=domain,
                           private=private, headers=headers, crops=rendered.crops(player.robot), budget=budget)
