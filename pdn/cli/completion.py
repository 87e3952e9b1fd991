"""`pdn completion SHELL`: a completion script for bash, zsh or fish, generated from the parser.

Each verb and its options come from the registered sub-parsers (``arguments.Verbs``), so a new
verb or option is completed without editing this module; an option with choices completes its
choices, the other arguments complete file names. Cost: O(verbs + options).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK

SHELLS = ("bash", "zsh", "fish")

EXAMPLES = """\
examples:
  source <(pdn completion bash)                       in ~/.bashrc
  pdn completion zsh > ~/.zfunc/_pdn                  with ~/.zfunc in $fpath
  pdn completion fish > ~/.config/fish/completions/pdn.fish
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register ``completion``; it reads the other verbs from ``subparsers`` when run."""
    parser = arguments.add_verb(
        subparsers,
        "completion",
        run,
        summary=summary,
        description="Print a script that completes pdn's verbs and their options in SHELL.",
        examples=EXAMPLES,
    )
    parser.add_argument("shell", choices=SHELLS, metavar="SHELL", help=", ".join(SHELLS))
    parser.set_defaults(verbs=subparsers)


def run(args: argparse.Namespace) -> int:
    """Print the script for ``args.shell``."""
    verbs = {name: _options(parser) for name, parser in args.verbs.verbs().items()}
    sys.stdout.write(SCRIPTS[args.shell](verbs))
    return EXIT_OK


#: An option's spellings, its choices (empty: any value or none), whether it takes a value.
Option = tuple[list[str], list[str], bool]


def _options(parser: argparse.ArgumentParser) -> list[Option]:
    options: list[Option] = []
    for action in parser._actions:
        if action.option_strings:
            choices = [str(choice) for choice in action.choices or ()]
            options.append((list(action.option_strings), choices, action.nargs != 0))
    return options


def bash(verbs: dict[str, list[Option]]) -> str:
    """The bash script: verbs first, then the verb's options, choices after an option."""
    cases = []
    for verb, options in verbs.items():
        names = " ".join(name for spellings, _, _ in options for name in spellings)
        choices = "".join(
            f'        {"|".join(spellings)}) COMPREPLY=($(compgen -W "{" ".join(values)}"'
            f' -- "$cur")); return;;\n'
            for spellings, values, _ in options
            if values
        )
        cases.append(
            f'    {verb})\n      case $prev in\n{choices}      esac\n      opts="{names}";;\n'
        )
    return (
        "_pdn() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
        f'    COMPREPLY=($(compgen -W "{" ".join(verbs)} --help --version" -- "$cur")); return\n'
        "  fi\n"
        "  local opts\n"
        "  case ${COMP_WORDS[1]} in\n"
        f"{''.join(cases)}"
        "  esac\n"
        '  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur"))\n'
        '  else COMPREPLY=($(compgen -f -- "$cur")); fi\n'
        "}\n"
        "complete -o filenames -F _pdn pdn\n"
    )


def zsh(verbs: dict[str, list[Option]]) -> str:
    """The zsh script (``#compdef pdn``): verbs, then each verb's options and files."""
    cases = []
    for verb, options in verbs.items():
        specs: list[str] = []
        for spellings, values, takes in options:
            action = f":value:({' '.join(values)})" if values else ":value:_files" * takes
            specs.extend(f"'{name}[]{action}'" for name in spellings)
        cases.append(f"    {verb}) _arguments {' '.join(specs)} '*:file:_files';;\n")
    return (
        "#compdef pdn\n"
        "_pdn() {\n"
        "  if (( CURRENT == 2 )); then\n"
        f"    compadd -- {' '.join(verbs)}; return\n"
        "  fi\n"
        "  shift words; (( CURRENT-- ))\n"
        "  case $words[1] in\n"
        f"{''.join(cases)}"
        "  esac\n"
        "}\n"
        "compdef _pdn pdn\n"
    )


def fish(verbs: dict[str, list[Option]]) -> str:
    """The fish script: one ``complete`` line per verb and per option of a verb."""
    lines = [f"complete -c pdn -n __fish_use_subcommand -f -a '{' '.join(verbs)}'"]
    for verb, options in verbs.items():
        for spellings, values, takes in options:
            flags = " ".join(
                f"-l {name[2:]}" if name.startswith("--") else f"-s {name[1:]}"
                for name in spellings
            )
            given = f" -x -a '{' '.join(values)}'" if values else " -r" * takes
            lines.append(f"complete -c pdn -n '__fish_seen_subcommand_from {verb}' {flags}{given}")
    return "\n".join(lines) + "\n"


SCRIPTS = {"bash": bash, "zsh": zsh, "fish": fish}
