"""The sections of the rules record: one frozen dataclass per part of the game (deal, turn,
pile, melds, opening, going out, red threes, scoring, end), each field with the seed sentence it
comes from in the comment above it (``#:``).

:class:`canasta.core.rules.Rules` holds one of each; :mod:`canasta.core.rule_values` names,
converts and checks their values. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, Protocol, cast

from canasta.core.frozen import FrozenMap


class RulesError(ValueError):
    """A rule value, option name or preset is invalid; the message names the field."""


#: The opening minimum of a side that may open only with a canasta
#: (``OpeningRules.canasta_required_from``): no count of card points reaches it.
CANASTA_ONLY = 1_000_000


def frozen_value(value: Any) -> Any:
    """``value`` with every ``dict`` made a :class:`FrozenMap` and every ``list`` a tuple (so
    that a section built from JSON-like values is immutable and hashable); anything else as
    it is."""
    if isinstance(value, dict):
        return FrozenMap({k: frozen_value(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        items = tuple(frozen_value(v) for v in value)
        return value if type(value) is tuple and all(
            a is b for a, b in zip(items, value, strict=True)) else items
    return value


class _Section:
    """What every section shares: after ``__init__`` its mapping and list values are frozen
    (a ``dict`` given becomes a :class:`FrozenMap`, a ``list`` a tuple). Values are checked
    where the sections meet, when a :class:`canasta.core.rules.Rules` is built."""

    __slots__ = ()

    def __post_init__(self) -> None:
        for f in fields(cast(Any, self)):
            value = getattr(self, f.name)
            frozen = frozen_value(value)
            if frozen is not value:
                object.__setattr__(self, f.name, frozen)


@dataclass(frozen=True, slots=True)
class DealRules(_Section):
    #: Packs of 52 cards. S002 "108 carte francesi (due mazzi ...)"; S000 "tre mazzi di 54 carte".
    packs: int = 2
    #: Jokers per pack. S002 "2 jolly per mazzo"; S004 "106 piese" rummy tiles = 1 per pack.
    jokers_per_pack: int = 2
    #: Player counts the variant may be played with. S002 "si gioca in 2 o 4".
    player_counts: tuple[int, ...] = (2, 4)
    #: Cards dealt by player count (JSON keys are strings). S002 "undici carte a ogni giocatore".
    cards_dealt: FrozenMap[int, int] = FrozenMap({2: 15, 4: 11})
    #: Packs by player count where it differs from ``packs``. S001 "nella Canasta a 6 si
    #: adoperano tre mazzi".
    packs_by_players: FrozenMap[int, int] = FrozenMap()
    #: Red threes dealt are laid out and replaced before the upcard is turned (S002 "li mette
    #: da parte ... A questo punto, il mazziere scopre la prima carta") or after the pile is
    #: formed (S000 "Si procede quindi con la sostituzione ... dei Tre rossi").
    red_threes_replaced_before_upcard: bool = True
    #: Cards put under the upcard by its rank, ace 14 (S000 "per un Asso 14 carte, per un Re 13").
    upcard_seeds_pile_by_rank: bool = False
    #: What happens to a special upcard: ``cover`` (left in the pile, S000/S002/S004) or
    #: ``bury_in_stock`` (S003 "interratela immediatamente nel tallone").
    special_upcard: Literal["cover", "bury_in_stock"] = "cover"
    #: Black threes count as special upcards too (S000 "un Tre nero o un Tre rosso viene
    #: ricoperto"; for S002 variants.md recommends covering them without a freeze).
    black_three_upcard_special: bool = True
    #: A wild card or red three turned up freezes the pile (S002 "il pozzo risulta congelato").
    special_upcard_freezes: bool = True
    #: With ``special_upcard_freezes``, a red three turned up freezes it too (S002 "Se questa
    #: carta è una matta o un onore ... congelato"; S004 "Daca prima carte intoarsa e 3 rosu ...
    #: inghetata"); False: only a wild card does (S000 variant "quando si sia sotterrato un Joker
    #: o una pinella").
    red_three_upcard_freezes: bool = True
    #: Redeal when this many wild cards are turned before a natural (S000 "vengano esposti tre
    #: Joker o pinelle ... la smazzata verrà annullata"); 0 = never.
    redeal_after_wild_upcards: int = 0
    #: Face-down "surprise" cards under the pile for the first taker (S004 "4 carti ascunse
    #: sub teancul de decartat"); 0 = none.
    surprise_cards: int = 0
    #: Who plays first: the seat ``next`` after the dealer in playing order (S002 "partendo dal
    #: giocatore alla sua sinistra, il quale sarà il primo a giocare") or the ``previous`` one.
    #: Seats are numbered in playing order and the deal starts with the seat after the dealer.
    first_player: Literal["next", "previous"] = "next"
    #: The way play goes round the table; seats are numbered in playing order, so this only
    #: tells front ends how to seat players (S004 "cel din dreapta celui care a facut impartirea
    #: incepe": the player on the dealer's right starts, play passing to the right).
    direction: Literal["clockwise", "anticlockwise"] = "clockwise"


@dataclass(frozen=True, slots=True)
class TurnRules(_Section):
    #: Cards drawn from the stock by player count; default 1. S002 "pescare una carte dal
    #: tallone"; S000 "pesca due carte dal tallone"; S001 "nella partita a due ... pesca ...
    #: due carte".
    draw_count: FrozenMap[int, int] = FrozenMap({2: 2})
    #: Cards also drawn from the stock when taking the pile (S000 "prendendo contemporaneamente
    #: una carta dal tallone"; S001 "non ne prende affatto se cattura il pozzo").
    draw_with_pile: int = 0
    #: No melding and no taking the pile in the first round (S004 "Etalarea se face numai dupa
    #: ce s-a incheiat prima tura").
    first_round_no_meld: bool = False


@dataclass(frozen=True, slots=True)
class PileRules(_Section):
    #: Natural cards from hand matching the top card needed to take an unfrozen pile with a new
    #: meld (S000 "due carte naturali dello stesso valore facciale"; S003 "almeno una carta
    #: naturale" with a wild as the third card).
    unfrozen_naturals: int = 2
    #: One of those naturals may be a wild card (S001 "una carta uguale a quella esposta e un
    #: Joker o pinella"; S002 "giocandola con altre carte di mano").
    unfrozen_wild_may_substitute: bool = True
    #: An unfrozen pile may be taken by adding the top card to one of the side's melds
    #: (S002 "attaccandola a una combinazione preesistente della coppia").
    layoff_takes_unfrozen_pile: bool = True
    #: Largest meld the top card may be added to when taking the pile; 0 = any size (S000
    #: variant: "combinazione (inferiore a canasta)").
    layoff_take_max_meld_size: int = 0
    #: Natural cards from hand needed to take a frozen pile (S002 "almeno due carte naturali";
    #: S000 "almeno tre carte naturali").
    frozen_naturals: int = 2
    #: A frozen pile may be taken only to complete a canasta (S004 "Teancul inghetat nu poate
    #: fi luat decat cu canasta").
    frozen_requires_canasta: bool = False
    #: A discarded wild card freezes the pile until it is taken (S002 "Quando un giocatore
    #: scarta una matta ... il pozzo risulta congelato").
    wild_discard_freezes: bool = True
    #: A discarded black three freezes the pile until it is taken, besides stopping the next
    #: player (S003 house rule "in alcune case la pila viene «congelata» da un 3 nero o da una
    #: carta jolly").
    black_three_discard_freezes: bool = False
    #: The pile is always frozen (S003 house rule "alcuni gruppi trattano tutti gli scarti come
    #: congelati").
    always_frozen: bool = False
    #: The pile is frozen for a side that has not opened (S004 "atunci cand echipa nu a
    #: etalat"; pagat's Canasta). Not in S002: "Se la rispettiva coppia non ha ancora aperto, il
    #: giocatore può prendere il pozzo solo se può utilizzare l'ultima carta scartata per
    #: aprire ... Se il pozzo è congelato, a questo vincolo si aggiunge l'obbligo di possedere
    #: almeno due carte naturali".
    frozen_for_unopened_side: bool = False
    #: A black three on top stops the next player (S002 "impedisce al giocatore successivo di
    #: prendere il pozzo").
    black_three_stops: bool = True
    #: The stopped player may not go out either (S004 "Jucatorul care primeste 3 negru nu are
    #: voie nici sa inchida").
    black_three_stops_going_out: bool = False
    #: A discard of a rank the receiving side has made a canasta of acts as a stop (S000
    #: variant "funge da stop come lo scarto di un Tre nero").
    canasta_rank_discard_stops: bool = False
    #: Going out by taking the pile is allowed like any other going out: a take that empties
    #: the hand goes out, and a player holding one card may take a one-card pile (S001
    #: "possibilità di chiusura anche senza scarto finale"; S003 "con la possibilità di
    #: scartarne una o nessuna"). False: Britannica's rule for S002, "If a player holds just
    #: one card in hand and the discard deck also consists of just one card, he cannot go out
    #: by taking the deck", read as no take that leaves the hand empty either.
    take_single_card_pile_to_go_out: bool = False
    #: An unopened side opening with the discard takes only the top card; the rest of the pile
    #: stays (S004 "toata gramada ... se poate lua doar incepand cu tura urmatoare"). Such a
    #: top-card opening needs the unfrozen-pile match whatever the freeze (S004 "plus alte 2
    #: carti naturale sau una naturala si o valoare"); a capture of a frozen pile that completes
    #: a canasta (``frozen_requires_canasta``) still takes the whole pile.
    opening_take_top_card_only: bool = False


@dataclass(frozen=True, slots=True)
class MeldRules(_Section):
    #: Cards in a meld (S002 "almeno tre carte").
    min_cards: int = 3
    #: Natural cards in a meld of naturals (S002 "di cui almeno due naturali").
    min_naturals: int = 2
    #: Wild cards in one meld (S002 "non si possono mai avere più di tre matte"; S000 impure
    #: canasta "5 o 6 carte naturali ... 2 o 1 Joker").
    max_wilds: int = 3
    #: Wild cards against naturals: ``any``, ``le`` (no more wilds than naturals) or ``lt``
    #: (S000 "ma non mai in numero pari o superiore a quello delle carte naturali").
    wild_ratio: Literal["any", "le", "lt"] = "any"
    #: Melds of wild cards only (S000 "canasta mista di Joker e pinelle"; S004 "canasta de
    #: valori").
    wild_melds: bool = False
    #: While a side's wild meld is not a canasta it may not go out, add wilds to natural melds
    #: or discard wilds (S000 "fin quando non l'ha completata non può chiudere ...").
    unfinished_wild_meld_restricts: bool = False
    #: Wild cards may be added to a completed natural canasta (S002 "in alcune varianti, a una
    #: canasta completa è possibile attaccare anche delle matte").
    wilds_on_completed_canasta: bool = True
    #: Black threes may be melded (3 or 4, no wilds) only when going out (S002 "In sede di
    #: chiusura, anche i 3 neri possono essere calati"; S000 "non viene attualmente più ammessa").
    black_three_meld_going_out: bool = True
    #: That going-out meld of black threes may hold wild cards, never as a mixed canasta (S002
    #: "In alcune versioni, una combinazione finale di 3 neri può essere solo pulita; non è
    #: comunque mai concesso formare una canasta mista di 3 neri": clean only "in alcune
    #: versioni").
    black_three_meld_wilds: bool = True
    #: A player holding this many black threes may put them out of play together at any time in
    #: the turn; they score nothing (S004 "3 negru se scoate din joc numai in formatie de 4");
    #: 0 = never.
    black_threes_out_of_play: int = 0
    #: Cards in a canasta (S002 "almeno 7 o più carte, detta canasta").
    canasta_size: int = 7
    #: A natural sequence of ``canasta_size`` cards of one suit (ace high, 4 lowest) may be
    #: melded at once as a canasta of its own, closed to further cards (S003 "Canastra Real ...
    #: una sequenza naturale di sette carte tutte dello stesso seme (A-K-Q-J-10-9-8, per
    #: esempio) vale 500 punti bonus e conta come canastra").
    real_canasta: bool = False
    #: A canasta of wild cards only counts as pure (deuces only) or impure (with a joker) where
    #: the rules ask for natural and mixed canastas (S000 "3000 per canasta pura di pinelle",
    #: "2000 punti per canasta mista di Joker e pinelle"); False: as neither.
    wild_canasta_kinds: bool = False


@dataclass(frozen=True, slots=True)
class OpeningRules(_Section):
    #: Opening minimum by the side's score: ``[[lower_bound, minimum], ...]`` with ascending
    #: bounds; ``None`` = any negative score. S002 "almeno 50 punti ... a 90 punti se la coppia
    #: ha tra i 1500 e i 2995 punti, a 120 se ... almeno 3000 ... negativo ... 15 punti".
    minimums: tuple[tuple[int | None, int], ...] = ((None, 15), (0, 50), (1500, 90), (3000, 120))
    #: Minimums at which only natural cards may be used (S000 "Per la discesa a 50 punti si
    #: richiedono solo combinazioni con carte naturali").
    naturals_only_at: tuple[int, ...] = ()
    #: The top card and the cards taking it count toward the minimum (S002 yes: "utilizzare
    #: l'ultima carta scartata per aprire"; S000 "non possono far parte del punteggio").
    capture_cards_count: bool = True
    #: A canasta opens whatever the minimum (S004 "Indiferent de punctaj, etalarea se poate
    #: face direct cu canasta").
    canasta_always_opens: bool = False
    #: A meld of wild cards only opens whatever the minimum (S004 "In cazul in care nu exista
    #: punctajul pentru etalare, aceasta se poate efectua si cu formatie de valori"); needs
    #: ``melds.wild_melds``.
    wild_meld_opens: bool = False
    #: Minimum for a side with a negative score, overriding ``minimums``; None = the table
    #: (S000 variant "apertura a 15 oppure apertura libera ... per la coppia gravata da
    #: punteggio negativo"; S001 "se punteggio negativo apertura libera").
    negative_minimum: int | None = None
    #: From this score on a side opens only with a canasta (needs ``canasta_always_opens``);
    #: 0 = never (S004 "canasta – peste 5000 de puncte, dar se agreaza"). The minimum then
    #: reads :data:`CANASTA_ONLY`.
    canasta_required_from: int = 0
    #: A player who melds a joker stops the opponents, for one round, from opening with
    #: "mattoni" (a meld of three jokers, or two jokers and a deuce: S000 "l'apertura con tre
    #: Joker o con due Joker e una pinella") in a turn in which they take the pile (S000 "un
    #: giocatore che mette in tavola in combinazione un Joker (mattone) impedisce per un giro ai
    #: giocatori avversari di fare l'apertura di mattoni e contemporaneamente impossessarsi del
    #: pozzo").
    joker_meld_blocks_mattoni: bool = False
    #: Added to the side's minimum for the hand when an insufficient opening is taken back
    #: (S000 "il punteggio richiesto per l'apertura aumenta di 10 punti"; S004 the same).
    retract_penalty: int = 10


@dataclass(frozen=True, slots=True)
class GoingOutRules(_Section):
    #: Canastas the side needs to go out (S002 "almeno una canasta"; S004 "1 sau 2").
    canastas_required: int = 1
    #: Canastas needed by player count where it differs from ``canastas_required`` (pagat's
    #: two-handed Canasta, for S002's "si gioca in 2": two canastas to go out).
    canastas_required_by_players: FrozenMap[int, int] = FrozenMap()
    #: The side needs a natural and a mixed canasta (S000 "almeno una canasta pura ed una
    #: impura").
    natural_and_mixed_required: bool = False
    #: Natural canastas the side needs to go out (S000 variant "obbligo di aver completato
    #: almeno due canaste pure per poter chiudere"); 0 = no such condition.
    natural_canastas_required: int = 0
    #: Going out needs a final discard (S000 "con lo scarto finale"; S002 "con o senza scarto").
    discard_required: bool = False
    #: The final discard may be a wild card (S002 "L'ultima carta scartata non può essere una
    #: carta speciale").
    final_discard_may_be_wild: bool = False
    #: The final discard may be a black three (S001 "scartando come ultima carta un Tre nero").
    final_discard_may_be_black_three: bool = False
    #: Bonus for going out (pagat for S002: 100; S000 "la chiusura di smazzata (300 punti)").
    bonus: int = 100
    #: Bonus for going out concealed, replacing ``bonus``; 0 = no separate bonus (pagat for
    #: S002: 200; S001 "200 punti per chiusura in mano").
    concealed_bonus: int = 200
    #: What "concealed" means: the side opens and goes out in one turn (S002 "riesce ad aprire e
    #: a chiudere in uno stesso turno") or the player had melded no card before (S001 "senza
    #: aver precedentemente messo in tavola alcuna carta").
    concealed_means: Literal["side_opens_this_turn", "player_first_meld"] = "side_opens_this_turn"
    #: A concealed going out needs no opening minimum (S001 "non è richiesta l'apertura";
    #: pagat for S002).
    concealed_waives_minimum: bool = True
    #: A player may ask the partner for permission to go out, the answer binding (S002
    #: "è obbligatorio obbedire alla risposta del compagno").
    ask_partner: bool = True
    #: Questions a player may ask per hand; 0 = one per turn (S003 "solo una volta per mano").
    ask_partner_per_hand: int = 0
    #: Penalty for a side whose player, told "yes", then does not go out in that turn (S004
    #: "A întreabă «pot să închid?», B răspunde «Da», A fiind obligat să închidă, se dovedeşte
    #: că nu poate ... Echipa este penalizată cu 500 de puncte"); 0 = none.
    ask_yes_unable_penalty: int = 0


@dataclass(frozen=True, slots=True)
class RedThreeRules(_Section):
    #: Value of each red three (S002 "I 3 rossi, noti come onori, valgono 100 punti").
    value: int = 100
    #: Total for a side holding this many (S000 "quattro, cinque o sei segnerà rispettivamente
    #: 800, 1000 e 1200"; pagat for S002: four = 800).
    totals: FrozenMap[int, int] = FrozenMap({4: 800})
    #: When red threes count against the side: ``no_meld`` (pagat for S002), ``canasta_matrix``
    #: (S000: plus with pure and impure, 0 with pure only, minus with impure only, double minus
    #: with none), ``no_canasta`` (minus without a canasta: Tranca, variants.md for S003) or
    #: ``never`` (S003 literal).
    sign: Literal["no_meld", "canasta_matrix", "no_canasta", "never"] = "no_meld"
    #: Red threes may be kept in hand, undeclared and forgoing their bonus, and discarded as
    #: stop cards like black threes (S000 variant "possibilità di trattenere in mano uno o più
    #: Tre rossi ... per valersene come «carte stop»"); ``meld 3h`` declares one later.
    may_keep_as_stop: bool = False
    #: Penalty for each red three kept in hand at the end (S000 "un Tre rosso trattenuto in mano
    #: al momento della chiusura costa 500 punti negativi"; S004 "-300").
    in_hand_penalty: int = 500
    #: The hand ends when the last stock card is a red three (Britannica for S002; S004 "daca
    #: ultima carte e 3 rosu, jocul se incheie").
    last_stock_red_three_ends_hand: bool = True
    #: The player who draws that last red three may still meld before the hand ends
    #: (Britannica yes; pagat no).
    meld_after_last_red_three: bool = False


@dataclass(frozen=True, slots=True)
class ScoringRules(_Section):
    #: Natural canasta bonus (pagat for S002: 500; S003 "Canastra naturale (pulita): 200").
    natural_canasta: int = 500
    #: Mixed canasta bonus (pagat for S002: 300; S003 100).
    mixed_canasta: int = 300
    #: Bonuses for canastas of aces, natural and mixed; 0 = as any other rank (S000 "1000 e 500
    #: punti per canasta rispettivamente pura e impura di Assi").
    natural_aces_canasta: int = 0
    mixed_aces_canasta: int = 0
    #: Wild canasta bonuses by composition (S000: mixed jokers and deuces 2000, "3000 per canasta
    #: pura di pinelle", "5000 punti per canasta formata da sei Joker ed una pinella").
    wild_canasta_mixed: int = 0
    wild_canasta_deuces: int = 0
    wild_canasta_six_jokers: int = 0
    #: Extra bonus for five canastas with a natural and a mixed one, and for five natural ones
    #: with a mixed one (S000 "1000 punti suppletivi ... 2000 punti"); ``tiered``: 2000 replaces
    #: 1000, ``cumulative``: both.
    five_canastas: int = 0
    five_natural_canastas: int = 0
    five_canastas_mode: Literal["tiered", "cumulative"] = "tiered"
    #: Hand cards of a side that had not opened count this many times (S000 "questi punti
    #: negativi vengono conteggiati raddoppiati"; S004 "inmultite cu 2").
    unopened_hand_multiplier: int = 1
    #: A side with melds but no canasta subtracts its melded cards (S004 "i se scad toate
    #: punctele etalate si de pe tabla").
    melds_count_negative_without_canasta: bool = False
    #: Penalty per black three left in hand, and for all four held by one side (S004 "3 de
    #: negru in mana -100", "toate 4 cartile de 3 negru -1600").
    black_three_in_hand: int = 0
    all_black_threes_in_hand: int = 0
    #: Bonus of a sequence canasta (``melds.real_canasta``; S003 "vale 500 punti bonus").
    real_canasta: int = 0


@dataclass(frozen=True, slots=True)
class EndRules(_Section):
    #: Points to win the match (pagat for S002: 5000; S000 "normalmente 12.000").
    target: int = 5000
    #: The side over the target must also go out in that hand to win (S004 "au punctajul mai
    #: mare sau egal cu 10.000 puncte reusesc sa inchida").
    must_go_out_to_win: bool = False
    #: Target by player count where it differs from ``target`` (S001 "nella Canasta a 6 ... la
    #: partita va ai 10.000 punti").
    target_by_players: FrozenMap[int, int] = FrozenMap()
    #: The target must be reached exactly (S003 variant "Sujo").
    exact_target: bool = False
    #: With ``exact_target``, a hand that carries a side past the target ``stands`` (S003 "se si
    #: supera, bisogna aspettare il prossimo superamento della soglia") or ``reverts`` to the
    #: score before the hand (S003 "se lo supera, torna alla soglia precedente").
    overshoot: Literal["stands", "reverts"] = "stands"
    #: With an empty stock, taking a discard that fits one of the side's melds is compulsory
    #: (pagat for S002); otherwise the player may end the hand instead.
    must_take_matching_discard: bool = True
    #: With an empty stock, the hand ends only when the player cannot take the discard: while
    #: any take is legal, ending the hand is not (S001 "si procede fin che ogni giocatore al suo
    #: turno può rilevare lo scarto: quando questo non è possibile la smazzata viene considerata
    #: chiusa").
    must_take_any_discard: bool = False


SECTIONS = ("deal", "turn", "pile", "melds", "opening", "going_out", "red_threes", "scoring", "end")


def section_class(section: str) -> type:
    """The dataclass of ``section`` (one of :data:`SECTIONS`); KeyError for another name."""
    return {
        "deal": DealRules, "turn": TurnRules, "pile": PileRules, "melds": MeldRules,
        "opening": OpeningRules, "going_out": GoingOutRules, "red_threes": RedThreeRules,
        "scoring": ScoringRules, "end": EndRules,
    }[section]


class RuleSections(Protocol):
    """What validation reads: the nine sections (a :class:`canasta.core.rules.Rules`)."""

    @property
    def deal(self) -> DealRules: ...
    @property
    def turn(self) -> TurnRules: ...
    @property
    def pile(self) -> PileRules: ...
    @property
    def melds(self) -> MeldRules: ...
    @property
    def opening(self) -> OpeningRules: ...
    @property
    def going_out(self) -> GoingOutRules: ...
    @property
    def red_threes(self) -> RedThreeRules: ...
    @property
    def scoring(self) -> ScoringRules: ...
    @property
    def end(self) -> EndRules: ...
