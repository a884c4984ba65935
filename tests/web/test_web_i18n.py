"""The page's text comes from the shared catalogues: the server serves them, sends refusals
as data with the variant's own seed sentence, and sends the log and score items as codes."""

from __future__ import annotations

from typing import Any

from canasta.i18n import catalogue, languages
from conftest import create, view


def test_the_catalogues_are_served_as_the_python_side_reads_them(client: Any) -> None:
    assert client.get("/i18n").json()["languages"] == list(languages())
    for lang in languages():
        r = client.get(f"/i18n/{lang}.json")
        assert r.status_code == 200 and r.json() == catalogue(lang)
    assert client.get("/i18n/xx.json").status_code == 404


def _illegal(client: Any, variant: str) -> dict[str, Any]:
    created = create(client, ["human"] * 4, variant=variant)
    table = created["table"]
    v = view(client, table)
    seat = v["view"]["actor"]
    tok = created["seats"][seat]["token"]
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": tok, "version": v["version"], "text": "discard Kh"})
    assert r.status_code == 422
    data: dict[str, Any] = r.json()
    return data


def test_a_refusal_carries_its_rule_values_and_the_variants_own_seed(client: Any) -> None:
    for variant, seed in (("canastone", "000"), ("international", "002")):
        err = _illegal(client, variant)
        refusal = err["refusal"]
        assert refusal["rule"] == err["rule"] == "turn order"
        assert refusal["key"] in catalogue("it") and refusal["seed"] == seed
        assert refusal["quote"] and refusal["variant"] == variant


def test_the_log_is_sent_as_catalogue_entries(client: Any) -> None:
    created = create(client, ["human", "bot", "human", "bot"])
    v = view(client, created["table"], created["seats"][0]["token"])
    entries = v["view"]["log_entries"]
    assert entries and all(e["key"] in catalogue("it") for e in entries)
    assert all(e["key"] != "event.unknown" for e in entries)


def test_every_text_the_pages_look_up_is_in_the_catalogue() -> None:
    """A key the page's scripts name literally (``t("ui.copy")``, ``data-i18n="..."``) exists
    in the English catalogue: ``t("open")`` showed the bare key "open" on every invitation
    link. Keys built from a prefix (``"score." + code``) are checked where they are built."""
    import re
    from pathlib import Path

    from canasta.i18n import catalogue

    static = Path(__file__).resolve().parents[2] / "src" / "canasta" / "web" / "static"
    english = catalogue("en")
    missing = []
    for page in sorted([*static.glob("*.js"), *static.glob("*.html")]):
        text = page.read_text("utf-8")
        keys = re.findall(r'\b(?:t|tCount|hasText)\(\s*"([^"]+)"', text) + re.findall(
            r'data-i18n(?:-label)?="([^"]+)"', text)
        missing += [f"{page.name}: {k}" for k in keys
                    if not k.endswith((".", "_")) and k not in english]
    assert missing == []
