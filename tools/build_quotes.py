"""Draft canasta/i18n/quotes.json: for every rule id a refusal can name, the sentence of each
variant's own seed text, taken from the preset's per-field sources and the Rules field
comments (core/rules.py), and kept only where it is found verbatim in the seed file.

Run once by hand (``python tools/build_quotes.py > src/canasta/i18n/quotes.json``), then
curate; tests/test_i18n.py checks every quote against its seed file.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from canasta.core.rule_values import field_doc
from canasta.core.rules import PRESETS, preset_info

SEEDS = Path("/work/shared/seeds")
SEED_OF = {"canastone": "000", "classic_italian": "001", "international": "002",
           "brazilian": "003", "romanian": "004"}
RULE_RE = re.compile(r'(?:fail|IllegalActionError)\(\s*"([^"]+)"')

#: Rules of the game that are not a Rules field: the sentences were picked by hand.
MANUAL: dict[str, dict[str, tuple[str, str]]] = {
    "turn order": {
        "international": ("002", "pescare una carte dal tallone; calare sul tavolo delle "
                          "combinazioni di carte, se ne ha la possibilità e comunque sempre a "
                          "sua discrezione; scartare una carta nel pozzo"),
        "canastone": ("000", "pesca due carte dal tallone oppure, se si realizzano determinate "
                      "condizioni che vedremo oltre, si impadronisce del mazzo degli scarti"),
        "classic_italian": ("001", "al suo turno il giocatore prende dal tallone una sola carta "
                            "invece di due e non ne prende affatto se cattura il pozzo"),
        "brazilian": ("003", "Pesca: prendi la carta in cima al tallone OPPURE prendi l'intera "
                      "pila degli scarti"),
        "romanian": ("004", "Tura unui jucator consta in a trage o carte din stoc sau ultima "
                     "din teancul decartat, formarea de formatii pe masa daca poate/vrea si "
                     "decartarea unei carti"),
    },
    "melds": {
        "international": ("002", "non sono concesse combinazioni di carte in scala"),
        "canastone": ("000", "a Canasta non esistono combinazioni in sequenza"),
        "classic_italian": ("000", "a Canasta non esistono combinazioni in sequenza"),
        "brazilian": ("003", "Una combinazione è composta da tre o più carte dello stesso "
                      "valore"),
        "romanian": ("004", "La etalare se folosesc numai terte, in acest joc “suitele” nu "
                     "exista"),
    },
    "one meld per rank": {
        "brazilian": ("003", "Una squadra non può avere due combinazioni separate dello stesso "
                      "valore contemporaneamente; aggiungi invece a quella esistente"),
    },
    "red threes": {
        "international": ("002", "Non è possibile calare una combinazione di 3 neri (se non in "
                          "sede di chiusura) né di 3 rossi"),
        "brazilian": ("003", "non vengono mai giocati nelle combinazioni"),
        "romanian": ("004", "3-arii nu se pot folosi in terte"),
    },
    "end of stock": {
        "classic_italian": ("001", "al termine del tallone se nessuno dei giocatori può o vuole "
                            "chiudere si procede fin che ogni giocatore al suo turno può "
                            "rilevare lo scarto"),
        "romanian": ("004", "se termina stocul de carti"),
    },
    "pile": {
        "international": ("002", "deve utilizzarne l'ultima carta (scartata dal giocatore "
                          "precedente), attaccandola a una combinazione preesistente della "
                          "coppia o giocandola con altre carte di mano per formare una nuova "
                          "combinazione"),
        "brazilian": ("003", "a condizione che tu possa immediatamente giocare in combinazione "
                      "la carta in cima con almeno una carta naturale dalla tua mano"),
        "romanian": ("004", "jucatorul arata perechea ce ii confera dreptul de a rupe si o "
                     "etaleaza impreuna cu cartea din top"),
    },
    "pile.unfrozen_naturals": {
        "international": ("002", "giocandola con altre carte di mano per formare una nuova "
                          "combinazione"),
    },
    "going out": {
        "international": ("002", "Per chiusura si indica la situazione di partita in cui il "
                          "giocatore di turno esaurisce le proprie carte"),
    },
}

#: Drafted quotes that say why a variant lacks the rule (read only where it is switched on by
#: hand), or that fit a neighbouring rule: better no quote than a misleading one.
DROP = {
    ("going_out.natural_and_mixed_required", "brazilian"),
    ("going_out.natural_and_mixed_required", "romanian"),
    ("going_out.natural_canastas_required", "brazilian"),
    ("going_out.final_discard_may_be_black_three", "brazilian"),
    ("going_out.final_discard_may_be_wild", "brazilian"),
    ("opening.naturals_only_at", "brazilian"),
    ("opening.naturals_only_at", "romanian"),
    ("pile.opening_take_top_card_only", "canastone"),
    ("pile.opening_take_top_card_only", "classic_italian"),
    ("pile.opening_take_top_card_only", "brazilian"),
    ("pile.layoff_take_max_meld_size", "brazilian"),
    ("red_threes.may_keep_as_stop", "brazilian"),
}
#: Where classic_italian's own sentence allows the rule and an option of Canastone's
#: (inherited) switches it on, the Canastone sentence is the one that carries it.
OVERRIDE: dict[tuple[str, str], tuple[str, str]] = {
    ("going_out.natural_and_mixed_required", "classic_italian"):
        ("000", "almeno una canasta pura ed una impura"),
    ("going_out.natural_canastas_required", "classic_italian"):
        ("000", "almeno due canaste pure"),
    ("pile.layoff_take_max_meld_size", "classic_italian"):
        ("000", "combinazione (inferiore a canasta)"),
}


def seed_text(num: str) -> str:
    path = next(SEEDS.glob(f"{num}_*.txt"))
    return " ".join(path.read_text("utf-8").split())


def found(quote: str, text: str) -> bool:
    return all(" ".join(part.split()) in text for part in quote.split("...") if part.strip())


def quotes_in(source: str, num: str) -> list[str]:
    """Quoted phrases in ``source`` that it attributes to seed ``num``."""
    out = []
    for m in re.finditer(r'(?:seed |S)(\d{3})[^"]{0,40}?"([^"]+)"', source):
        if m.group(1) == num:
            out.append(m.group(2))
    return out


def main() -> None:
    root = Path(__file__).resolve().parents[1] / "src/canasta/core"
    rules: set[str] = set()
    for path in root.glob("*.py"):
        rules.update(RULE_RE.findall(path.read_text("utf-8")))
    table: dict[str, dict[str, dict[str, str]]] = {}
    for rule in sorted(rules):
        entry: dict[str, dict[str, str]] = {}
        for variant in PRESETS:
            nums = [SEED_OF[variant]] + (["000"] if variant == "classic_italian" else [])
            sources = preset_info(variant)["sources"]
            for num in nums:
                text = seed_text(num)
                cands = quotes_in(sources.get(rule, ""), num) + quotes_in(
                    field_doc(*rule.split(".", 1)) if "." in rule else "", num)
                good = [q for q in cands if found(q, text)]
                if good:
                    entry[variant] = {"seed": num, "quote": good[0]}
                    break
        for variant, (num, quote) in MANUAL.get(rule, {}).items():
            assert found(quote, seed_text(num)), (rule, variant, quote)
            entry.setdefault(variant, {"seed": num, "quote": quote})
        for (r, variant), (num, quote) in OVERRIDE.items():
            if r == rule:
                assert found(quote, seed_text(num)), (rule, variant, quote)
                entry[variant] = {"seed": num, "quote": quote}
        table[rule] = {v: entry[v] for v in PRESETS if v in entry and (rule, v) not in DROP}
    json.dump(table, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
