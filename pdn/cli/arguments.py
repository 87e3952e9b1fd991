"""The command-line vocabulary every verb shares: one rule, one spelling and one error wording
for input paths and ``-``, output files, ``--variant``, ``--rules``, finding codes, whole
numbers, ``--jobs`` and ``--format``.

Types raise ``argparse.ArgumentTypeError``, so a bad value is a usage error (exit 2, one
line ``pdn VERB: error: argument OPTION: reason``, the usage only with ``--help``) worded alike
in every verb; an unknown option or verb is one line with a "did you mean" (``Parser``).
Builders add an argument with its one name, metavar and help; a verb adds only what its
option means for it. Everything here is O(1) per argument, O(n) in a list's length.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from pdn.base.findings import CODES, Finding, passing
from pdn.base.output import STDIO, InputOverwriteError, refuse_inputs
from pdn.base.paths import PathError
from pdn.cli.exitcodes import EXIT_USAGE
from pdn.engine.drawrules import profile_named
from pdn.engine.variants import VARIANTS, Variant

if TYPE_CHECKING:  # the verbs that use them import them (``pdn --help`` does not)
    from pdn.database.filters import Criteria
    from pdn.engine.position import Position

T = TypeVar("T")

_DIGITS = re.compile(r"[0-9]+")


class Parser(argparse.ArgumentParser):
    """The parser of ``pdn`` and of every verb: an error is one line on stderr and exit 2,
    the usage only with ``--help``; the verbs are read by ``Verbs``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", Verbs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def refuse_unknown(self, extras: Sequence[str]) -> NoReturn:
        """Exit 2 with one line on the first of ``extras`` (arguments this parser did not
        take): an unknown option with the nearest known one, or an unexpected argument."""
        first = next((item for item in extras if item.startswith("-")), extras[0])
        if not first.startswith("-"):
            self.exit(EXIT_USAGE, f"{self.prog}: unexpected argument {first!r}\n")
        option = first.partition("=")[0]
        known = [name for action in self._actions for name in action.option_strings]
        self.exit(
            EXIT_USAGE, f"{self.prog}: unknown option {option}{_did_you_mean(option, known)}\n"
        )


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the nearest of ``known`` (difflib), else ``""``."""
    near = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {near[0]}?)" if near else ""


class Verbs(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The VERB argument: an unknown verb, or an option the verb does not know, is one line
    naming it with the nearest known one (``Parser.refuse_unknown``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices: Any = None  # checked in __call__, with a suggestion

    def verbs(self) -> dict[str, Parser]:
        """Each verb's name and parser, in the order ``pdn --help`` lists them."""
        return dict(self._name_parser_map)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        name, *rest = list(values or [""])
        verb = self._name_parser_map.get(name)
        if verb is None:
            hint = _did_you_mean(name, self._name_parser_map)
            parser.exit(EXIT_USAGE, f"{parser.prog}: unknown verb {name!r}{hint}\n")
        setattr(namespace, self.dest, name)
        parsed, extras = verb.parse_known_args(rest, None)
        if extras:
            verb.refuse_unknown(extras)
        for key, value in vars(parsed).items():
            setattr(namespace, key, value)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Description and examples as written; option help wrapped between words only, so a
    name such as ``brazilian-giveaway`` never breaks at its hyphen."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def add_verb(
    subparsers: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    *,
    summary: str,
    description: str,
    examples: str | None = None,
) -> argparse.ArgumentParser:
    """Register verb ``name``: ``summary`` is its line in ``pdn --help``, ``description`` and
    ``examples`` (kept as written) its ``pdn NAME --help``; ``run`` answers it."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=description,
        epilog=examples,
        formatter_class=_HelpFormatter,
    )
    parser.set_defaults(func=run)
    return parser


def parsed(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a parser that raises ValueError with the reason: the reason is
    the usage error."""

    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = getattr(parse, "__name__", "value")
    return convert


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """argparse type: a whole number (ASCII digits, no sign) from ``minimum`` up to
    ``maximum`` (no limit when None); the error says the range and quotes the text."""
    bounds = f"of at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"

    def convert(text: str) -> int:
        number = int(text) if _DIGITS.fullmatch(text) else None
        if number is None or number < minimum or (maximum is not None and number > maximum):
            raise argparse.ArgumentTypeError(f"expected a whole number {bounds}, not {text!r}")
        return number

    convert.__name__ = "whole_number"
    return convert


#: A count where 0 means something (the start, every core, no limit): 0 or more.
count = whole_number(0)


def add_number(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    option: str,
    help: str,
    *,
    minimum: int = 1,
    maximum: int | None = None,
    default: int | None = None,
    required: bool = False,
    metavar: str = "N",
) -> None:
    """``OPTION N``: a whole number from ``minimum`` (1 unless 0 means something, as "0:
    all") up to ``maximum``, read by ``whole_number``."""
    parser.add_argument(
        option,
        type=whole_number(minimum, maximum),
        default=default,
        required=required,
        metavar=metavar,
        help=help,
    )


def number_list(item: Callable[[str], int]) -> Callable[[str], list[int]]:
    """argparse type: comma-separated numbers, each read by ``item`` (one of the types above);
    the error names the list and the item's reason."""

    def convert(text: str) -> list[int]:
        parts = [part.strip() for part in text.split(",") if part.strip()]
        if not parts:
            raise argparse.ArgumentTypeError(f"expected comma-separated numbers, not {text!r}")
        try:
            return [item(part) for part in parts]
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentTypeError(f"in {text!r}: {error}") from None

    convert.__name__ = "number_list"
    return convert


def _variant_name(text: str) -> str:
    return Variant.from_name(text).name


#: argparse type: a variant name or alias, returned as the variant's name; the error lists
#: the known variants.
variant_name = parsed(_variant_name)


def _profile_name(text: str) -> str:
    return profile_named(text).name


#: argparse type: a draw-rules profile name; the error lists the known profiles.
profile_name = parsed(_profile_name)


def name_list(known: Iterable[str], what: str) -> Callable[[str], frozenset[str]]:
    """argparse type: comma-separated names, each one of ``known``; the error names the
    unknown ones (``what``: "finding code(s)") and lists the known."""
    names = tuple(known)

    def convert(text: str) -> frozenset[str]:
        given = frozenset(part.strip() for part in text.split(",") if part.strip())
        unknown = sorted(given.difference(names))
        if unknown or not given:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {', '.join(unknown) or repr(text)}; known: {', '.join(names)}"
            )
        return given

    convert.__name__ = "name_list"
    return convert


#: argparse type: comma-separated finding codes.
code_list = name_list(CODES, "finding code(s)")


def add_variant(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    meaning: str,
    *,
    required: bool = False,
) -> None:
    """``--variant V``: what it means for the verb (``meaning``), then the accepted names;
    ``args.variant`` is the variant's name (aliases resolved) or None."""
    parser.add_argument(
        "--variant",
        type=variant_name,
        required=required,
        metavar="V",
        help=f"{meaning}: {', '.join(VARIANTS)}",
    )


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules PROFILE``: the draw-rule profile instead of each variant's default."""
    parser.add_argument(
        "--rules",
        type=profile_name,
        metavar="PROFILE",
        help="draw-rule profile instead of each variant's default",
    )


#: The most worker processes ``--jobs`` starts.
MAX_JOBS = 1024


def add_jobs(
    parser: argparse.ArgumentParser, help: str = "worker processes (0: all cores)"
) -> None:
    """``--jobs N``: worker processes, 0 for every core (default 1: this process), at most
    ``MAX_JOBS``."""
    add_number(
        parser,
        "--jobs",
        help,
        minimum=0,
        maximum=MAX_JOBS,
        default=1,
    )


def add_format(
    parser: argparse.ArgumentParser, choices: Sequence[str], help: str, *, by_output: bool = False
) -> None:
    """``--format F``, one of ``choices``: the first is the default, or with ``by_output``
    none (the verb picks by where the output goes; ``help`` says how)."""
    default = None if by_output else choices[0]
    parser.add_argument("--format", choices=choices, default=default, help=help)


class _Inputs(argparse.Action):
    """Stores the PATH list after the one rule on ``-``: standard input is read at most
    once, and not at all by a verb that must have files (``refused`` says why)."""

    def __init__(self, *args: Any, refused: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refused = refused

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        paths = [values] if isinstance(values, str) else list(values or ())
        if STDIO in paths and self.refused:
            raise argparse.ArgumentError(
                self, f"'{STDIO}': not standard input ({self.refused}); save it to a file first"
            )
        if paths.count(STDIO) > 1:
            raise argparse.ArgumentError(self, f"'{STDIO}' (standard input) can be read only once")
        setattr(namespace, self.dest, values)


def add_inputs(parser: argparse.ArgumentParser, *, refuse_stdin: str | None = None) -> None:
    """``PATH...``: PDN files or folders (a folder means its ``*.pdn`` files); ``-`` is
    standard input, once, unless the verb must have files (``refuse_stdin``: the reason)."""
    where = f"not '-': {refuse_stdin}" if refuse_stdin else "'-': standard input"
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        action=_Inputs,
        refused=refuse_stdin,
        help=f"PDN files or folders ({where})",
    )


def add_input(parser: argparse.ArgumentParser, why: str) -> None:
    """``PATH``: one PDN file, ``-`` for standard input; a folder is a usage error saying
    ``why`` the verb takes one file and to name a file of it. One ``stat``."""

    def one_file(path: str) -> str:
        if path != STDIO and os.path.isdir(path):
            raise argparse.ArgumentTypeError(f"{path!r} is a folder; {why}: name a file of it")
        return path

    parser.add_argument(
        "path", type=one_file, metavar="PATH", help="PDN file ('-': standard input)"
    )


def add_output(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    meaning: str,
    *,
    default: str | None = STDIO,
    required: bool = False,
) -> None:
    """``-o/--output OUT``: where ``meaning`` goes; ``-`` is standard output (the default
    unless ``default`` says otherwise). Written through ``pdn.base.output``."""
    said = " (default: standard output)" if default == STDIO else ""
    parser.add_argument(
        "-o",
        "--output",
        default=default,
        required=required,
        metavar="OUT",
        help=f"{meaning} ('-': standard output){said}",
    )


class Unreadable:
    """The ``on_error`` of a library batch call: each path that cannot be read said on stderr
    as ``pdn VERB: FILE: MESSAGE``; ``failed`` once one was."""

    def __init__(self, verb: str) -> None:
        self.verb = verb
        self.failed = False

    def __call__(self, error: PathError) -> None:
        print(f"pdn {self.verb}: {error.file}: {error.message}", file=sys.stderr)
        self.failed = True


def overwrites_input(verb: str, outputs: Mapping[str, str | None], paths: Iterable[str]) -> bool:
    """True, after saying so on stderr, when an output path (keyed by its option) is, or
    resolves to, an input of ``paths`` (files in folders included) or another output:
    ``pdn.base.output.refuse_inputs``, for a verb that opens its outputs itself."""
    try:
        refuse_inputs(outputs, paths)
    except InputOverwriteError as error:
        print(f"pdn {verb}: {error}", file=sys.stderr)
        return True
    return False


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--variant V`` (required) and ``--fen FEN`` options."""
    add_variant(parser, "rule set", required=True)
    parser.add_argument(
        "--fen",
        metavar="FEN",
        help="start position as a PDN FEN, e.g. 'W:W31,32,K45:B1,2' (default: initial)",
    )


def load_position(args: argparse.Namespace) -> Position | None:
    """The position named by ``--variant``/``--fen``; on bad input print why to stderr, None."""
    from pdn.engine.errors import FenError
    from pdn.engine.position import Position

    variant = Variant.from_name(args.variant)
    if args.fen is None:
        return Position.initial(variant)
    try:
        position = Position.from_fen(args.fen, variant)
    except (FenError, ValueError) as error:
        print(f"pdn {args.verb}: bad FEN {args.fen!r}: {error}", file=sys.stderr)
        return None
    problems = position.problems()
    if problems:
        reasons = "; ".join(problems)
        print(f"pdn {args.verb}: FEN {args.fen!r} is impossible: {reasons}", file=sys.stderr)
        return None
    return position


def add_audit_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of every verb that audits files (`check`, `report`): --variant, --rules,
    --select, --ignore, --strict, --jobs."""
    add_variant(parser, "variant of games without a usable GameType")
    add_rules(parser)
    parser.add_argument("--select", type=code_list, metavar="CODES", help="only these codes")
    parser.add_argument("--ignore", type=code_list, metavar="CODES", help="never these codes")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too, not only on errors"
    )
    add_jobs(parser)


def selected(findings: list[Finding], args: argparse.Namespace) -> list[Finding]:
    """The findings ``--select`` / ``--ignore`` let through."""
    return passing(findings, args.select, args.ignore)


def add_criteria_arguments(parser: argparse.ArgumentParser) -> None:
    """The filters ``select`` and ``search`` share."""
    from pdn.database.filters import MaterialSpec, date_range, int_range
    from pdn.database.manoeuvres import ManoeuvreQuery
    from pdn.database.tagfilters import TagTest

    group = parser.add_argument_group("filters (all must hold)")
    add_variant(group, "games of variant V")
    group.add_argument(
        "--player", action="append", default=[], metavar="NAME", help="NAME played (repeatable)"
    )
    group.add_argument("--white", metavar="NAME", help="NAME had White")
    group.add_argument("--black", metavar="NAME", help="NAME had Black")
    group.add_argument("--event", metavar="TEXT", help="Event tag contains TEXT (any case)")
    group.add_argument(
        "--date",
        type=parsed(date_range),
        metavar="FROM..TO",
        help="Date within the range",
    )
    group.add_argument("--result", metavar="R", help="score, white, black, draw or *")
    group.add_argument(
        "--plies", type=parsed(int_range), metavar="MIN..MAX", help="main-line length"
    )
    group.add_argument(
        "--with-findings",
        type=code_list,
        metavar="CODES",
        help="the audit finds one of CODES",
    )
    group.add_argument(
        "--clean", action="store_true", help="the audit finds no error and no warning"
    )
    group.add_argument(
        "--position", metavar="FEN", help="the main line reaches FEN (side to move counts)"
    )
    group.add_argument(
        "--material",
        type=parsed(MaterialSpec.parse),
        metavar="SPEC",
        help="the material SPEC stands on the board at some ply",
    )
    group.add_argument(
        "--pattern",
        metavar="PATTERN",
        help="a position of the main line holds these pieces: a partial FEN (?:WK46:B, a white "
        "king on 46, either side to move) or more (W:WK6,27-29:B!*45:E23; README Searching)",
    )
    group.add_argument(
        "--pattern-not",
        metavar="FEN",
        help="... and none of these pieces (a partial FEN: ?:W24:BK19)",
    )
    group.add_argument(
        "--mirror",
        action="store_true",
        help="the pattern or its colour-swapped copy (squares mapped across the centre)",
    )
    group.add_argument(
        "--move",
        action="append",
        default=[],
        type=parsed(ManoeuvreQuery.parse),
        metavar="QUERY",
        help="a manoeuvre or theme: bK46x02, 'W shot takes:3..', 'at least 3 promotions', "
        "'Wx then within 2 Bx kings:1..' (README Searching); repeatable, all must hold",
    )
    group.add_argument(
        "--tag",
        action="append",
        default=[],
        type=parsed(TagTest.parse),
        metavar="TEST",
        help="any tag: NAME=VALUE (several: A|B), NAME~REGEX, NAME!=VALUE, NAME!~REGEX, "
        "NAME>=N (<, <=, >), NAME (present); any case; repeatable, all must hold",
    )


def criteria_from(args: argparse.Namespace) -> Criteria:
    """The parsed filters; ValueError (with the reason) for a bad FEN, result or pattern."""
    from pdn.database.filters import Criteria
    from pdn.database.patterns import Pattern

    pattern = None
    if args.pattern is not None or args.pattern_not is not None:
        pattern = Pattern.parse(args.pattern, absent=args.pattern_not, mirror=args.mirror)
    elif args.mirror:
        raise ValueError("--mirror mirrors a --pattern or --pattern-not: give one")

    return Criteria(
        variant=args.variant,
        players=tuple(args.player),
        white=args.white,
        black=args.black,
        event=args.event,
        date=args.date,
        result=args.result,
        plies=args.plies,
        with_findings=args.with_findings,
        clean=args.clean,
        position=args.position,
        material=args.material,
        pattern=pattern,
        moves=tuple(args.move),
        tag_tests=tuple(args.tag),
    )
