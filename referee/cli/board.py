"""``referee board``: list, draw and check the boards and courses, and list the element kinds."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pathlib import Path


@click.group("board")
def board_group() -> None:
    """Boards and courses."""


@board_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.option("--markdown", is_flag=True, help="The table of docs/boards.md (size, players, what each is about).")
def board_list(as_json: bool, markdown: bool) -> None:
    """List the boards and courses that can be named."""
    import json

    from ..boards import list_boards

    rows = list_boards()
    if markdown:
        from ..boards import boards_table

        click.echo(boards_table(rows))
        return
    if as_json:
        click.echo(json.dumps([{"name": n, "kind": k, "path": str(p)} for n, k, p in rows], indent=2))
        return
    for name, kind, path in rows:
        click.echo(f"{name:<24} {kind:<7} {path}")


@board_group.command("show")
@click.argument("name")
@click.option("--no-legend", is_flag=True, help="Only the picture.")
@click.option("--png", "png", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also draw the board as the turn pictures do, with its key below, into FILE (PNG).")
def board_show(name: str, no_legend: bool, png: str | None) -> None:
    """Print an ASCII picture of board or course NAME (or a board FILE), with the key of the kinds on it.

    A file with errors is drawn all the same, without the elements that failed: its errors are listed, the
    squares they name are framed in red in the PNG, and the exit status is 1.
    """
    from ..boards import check_board
    from ..engine.ascii import render

    shown, b, problems = check_board(name)
    if b is None:
        raise click.ClickException("; ".join(problems[:3]) + (f" (and {len(problems) - 3} more)"
                                                               if len(problems) > 3 else ""))
    click.echo(f"{b.name if b.name != 'board' else shown}: {b.width} x {b.height}, flags {b.flag_count}, "
               f"starts {len(b.starts)}")
    click.echo(render(b, legend=False))
    if not no_legend:
        click.echo("\n".join(board_key(b)))
    for number, problem in enumerate(problems, start=1):
        click.echo(f"error {number}: {problem}")
    if png:
        from pathlib import Path

        from ..render.board_image import draw_floor
        from ..render.legend import legend_image

        floor = draw_floor(b)
        if problems:
            mark_errors(floor, b, problems)
        save_png(floor, legend_image(b), Path(png))
        click.echo(f"picture: {png}" + (f" (the squares of the {len(problems)} error(s) framed in red)"
                                        if problems else ""))
    if problems:
        sys.exit(1)


def mark_errors(floor: object, board: object, problems: list[str]) -> None:
    """Frame in red, on the picture ``floor`` of ``board``, every square the ``problems`` name (r3c5, or a run
    r1c1-r1c6: its ends), with the error's number beside it."""
    import re

    from PIL import Image, ImageDraw

    from ..render.layout import CELL, Layout

    assert isinstance(floor, Image.Image)
    lay = Layout(board.width, board.height, CELL)  # type: ignore[attr-defined]  (as draw_floor lays it out)
    draw = ImageDraw.Draw(floor)
    for number, problem in enumerate(problems, start=1):
        for r, c in re.findall(r"\br(\d+)c(\d+)\b", problem.split(": ", 1)[-1]):
            sq = (int(r), int(c))
            if not (1 <= sq[0] <= board.height and 1 <= sq[1] <= board.width):  # type: ignore[attr-defined]
                continue
            x, y = lay.origin(sq)
            draw.rectangle((x + 1, y + 1, x + lay.cell - 2, y + lay.cell - 2), outline=(220, 0, 0), width=3)
            draw.text((x + 4, y + 2), str(number), fill=(220, 0, 0))


def board_key(b: object) -> list[str]:
    """The key of the kinds on board ``b`` only, then a note for each element that needs one."""
    from ..engine import KINDS
    from ..engine.geometry import square_name

    layers: dict = b.layers  # type: ignore[attr-defined]
    notes = []
    for kind_name, layer in layers.items():
        kind = KINDS[kind_name]
        if kind.legend is None:
            continue
        for sq, els in sorted(layer.items()):
            notes.extend(f"  {square_name(sq)}: {kind.legend(el)}" for el in els)
    keys = [KINDS[k].key for k in KINDS if k in layers and KINDS[k].key]
    if b.void:  # type: ignore[attr-defined]
        keys.append("::: off the course")
    return ["key: " + (", ".join(keys) or "plain floor"), *notes]


def save_png(floor: object, key: object, path: Path) -> None:
    """The board picture with its key below it, as one PNG."""
    from PIL import Image

    from ..render.png import png_bytes

    assert isinstance(floor, Image.Image) and isinstance(key, Image.Image)
    width = max(floor.width, key.width)
    whole = Image.new("RGB", (width, floor.height + key.height), (255, 255, 255))
    whole.paste(floor.convert("RGB"), (0, 0))
    whole.paste(key.convert("RGB"), (0, floor.height))
    try:
        path.write_bytes(png_bytes(whole))
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror}") from None


@board_group.command("kinds")
@click.option("--markdown", is_flag=True, help="the element table of docs/boards.md")
def board_kinds(markdown: bool) -> None:
    """List the element kinds, their fields and what they do."""
    from ..engine import KINDS
    from ..engine.kinds import kinds_table

    if markdown:
        click.echo(kinds_table())
        return
    for kind in KINDS.values():
        fields = ", ".join(f.name + ("" if f.required else f" (default {f.default})") for f in kind.fields)
        click.echo(f"{kind.name:<11} {fields or '-':<34} {kind.summary}")


@board_group.command("check")
@click.argument("names", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="The verdicts as JSON.")
def board_check(names: tuple[str, ...], as_json: bool) -> None:
    """Validate board and course files (NAMEs or PATHs to .toml files; all known ones by default).

    Every error of a file is listed, not only the first. A course must be raceable: every flag
    reachable on foot from every start square, in order. Exit status 1 when any file has an error.
    """
    import json

    from ..boards import check_board, list_boards

    targets = list(names) or [n for n, _, _ in list_boards()]
    verdicts = []
    for target in targets:
        name, b, problems = check_board(target)
        verdicts.append({"name": name, "ok": not problems, "errors": problems,
                         "size": f"{b.width}x{b.height}" if b is not None else None})
    if as_json:
        click.echo(json.dumps(verdicts, indent=2))
    else:
        for v in verdicts:
            if v["ok"]:
                click.echo(f"ok     {v['name']} ({v['size']})")
            for problem in v["errors"]:
                click.echo(f"error  {problem}")
    if any(not v["ok"] for v in verdicts):
        sys.exit(1)
