"""``python -m canasta.i18n.check``: what each catalogue lacks against the others.

Every catalogue must hold the same keys, with the same ``{name}`` placeholders in each text.
This lists, per language, the keys missing (present in another catalogue), the keys no other
catalogue has, and the texts whose placeholders differ from English; it exits 1 when anything
is listed, 0 when the catalogues agree. ``--keys`` prints only the missing keys, one a line
(to feed a translator); ``--lang ro`` limits the listing to one language.
"""

from __future__ import annotations

import argparse
import sys

from canasta.i18n.catalogue import DEFAULT, catalogue, languages, placeholders


def problems(lang: str) -> dict[str, list[str]]:
    """``missing`` (keys another catalogue has), ``extra`` (keys only this one has, when the
    others agree without it) and ``placeholders`` (keys whose ``{name}`` set differs from
    English) of ``lang``'s catalogue."""
    mine = catalogue(lang)
    others = [catalogue(o) for o in languages() if o != lang]
    everyone = set().union(*(set(c) for c in others)) if others else set()
    missing = sorted(everyone - set(mine))
    extra = sorted(k for k in mine if others and all(k not in c for c in others))
    english = catalogue(DEFAULT)
    wrong = sorted(k for k, text in mine.items()
                   if k in english and placeholders(text) != placeholders(english[k]))
    return {"missing": missing, "extra": extra, "placeholders": wrong}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m canasta.i18n.check",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--lang", help="only this language")
    parser.add_argument("--keys", action="store_true", help="print only the missing keys")
    args = parser.parse_args(argv)
    langs = [args.lang] if args.lang else list(languages())
    bad = False
    for lang in langs:
        if lang not in languages():
            print(f"no catalogue for '{lang}'; have {', '.join(languages())}", file=sys.stderr)
            return 2
        found = problems(lang)
        if args.keys:
            for key in found["missing"]:
                print(f"{lang}\t{key}\t{catalogue(DEFAULT).get(key, '')}")
            bad = bad or bool(found["missing"])
            continue
        counts = ", ".join(f"{len(v)} {k}" for k, v in found.items())
        print(f"{lang}: {len(catalogue(lang))} keys; {counts}")
        for kind, keys in found.items():
            for key in keys:
                print(f"  {kind}: {key}")
        bad = bad or any(found.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
