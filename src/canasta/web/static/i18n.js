// Interface text in English and Italian. The language comes from the switch (kept in
// localStorage) or else from the browser's language.
"use strict";

const STRINGS = {
  en: {
    app_title: "Canasta",
    tagline: "Sit at a table with friends and bots, in any rule set.",
    create_table: "Create a table",
    variant: "Variant",
    players: "Players",
    teams: "Teams",
    two_teams_of_three: "two teams of three",
    three_pairs: "three pairs",
    house_rules: "House rules",
    seats: "Seats",
    seat_n: "Seat {n}",
    person: "Person",
    bot: "Bot",
    level_random: "random",
    level_greedy: "greedy",
    name: "Name",
    you_default: "You",
    create: "Create the table",
    invite_links: "Invitation links",
    invite_help: "Send each person the link of their seat. Each link is a secret key to that seat.",
    copy: "Copy",
    copied: "Copied",
    open: "Open",
    spectator_link: "Spectator link",
    sit_down: "Sit down as {name}",
    your_tables: "Your tables",
    no_tables: "No tables yet.",
    hand_n: "Hand {n}",
    stock: "Stock",
    pile: "Discard pile",
    empty: "empty",
    frozen: "frozen",
    stopped: "stopped",
    red_threes: "Red threes",
    melds: "Melds",
    no_melds: "no melds yet",
    your_side: "Your side",
    team_n: "Team {n}",
    opening_needed: "opening: {n} needed",
    opening_progress: "opening: {p} of {n}",
    opened: "opened",
    canasta_natural: "natural canasta",
    canasta_mixed: "mixed canasta",
    canasta_wild: "wild canasta",
    draw: "Draw",
    take_pile: "Take the pile",
    meld: "Meld",
    lay_off: "Add to {r}",
    discard: "Discard",
    discard_out: "Discard and go out",
    go_out: "Go out",
    ask_partner: "Ask partner",
    answer_yes: "Yes, go out",
    answer_no: "No",
    retract: "Take back opening",
    end_hand: "End the hand",
    next_hand: "Next hand",
    hint_draw: "Your turn: draw, or select cards and take the pile.",
    hint_play: "Select cards to meld or add to a meld; discard one card to end your turn.",
    hint_provisional: "Your opening is not complete yet: meld more, or take it back.",
    hint_answer: "{name} asks: may I go out?",
    waiting_for: "{name} is playing…",
    waiting_answer: "Waiting for {name}'s answer…",
    spectating: "You are watching this table.",
    bot_plays_you: "A bot is playing your seat.",
    hand_over: "The hand is over",
    score_sheet: "Score sheet",
    download_record: "Download the record",
    match_over: "{team} wins the match!",
    close: "Close",
    show_sheet: "Score sheet",
    log: "Log",
    scores: "Scores",
    total: "Hand total",
    before: "Before",
    after: "After",
    hand: "Hand",
    give_bot: "Let a bot play",
    take_back: "Take my seat back",
    online: "online",
    offline: "away",
    reconnecting: "Reconnecting…",
    connected: "Connected",
    cards_n: "{n} cards",
    to_target: "to {n}",
    dealer: "dealer",
    you: "you",
    invite: "Invite",
    back_to_lobby: "New table",
    language: "Language",
    err_stale: "The table moved on before your move arrived; look again.",
    err_not_your_turn: "It is not your turn.",
    err_illegal: "Not allowed: {msg}",
    err_generic: "{msg}",
    end_went_out: "{name} went out.",
    end_stock_exhausted: "The stock is gone.",
    end_last_card_red_three: "The last card of the stock was a red three.",
    unknown_table: "There is no such table.",
    bad_token: "This link holds no seat at this table.",
    select_cards: "Selected: {n}",
    clear: "Clear",
  },
  it: {
    app_title: "Canasta",
    tagline: "Siediti al tavolo con amici e bot, con qualsiasi regolamento.",
    create_table: "Crea un tavolo",
    variant: "Variante",
    players: "Giocatori",
    teams: "Squadre",
    two_teams_of_three: "due squadre da tre",
    three_pairs: "tre coppie",
    house_rules: "Regole della casa",
    seats: "Posti",
    seat_n: "Posto {n}",
    person: "Persona",
    bot: "Bot",
    level_random: "casuale",
    level_greedy: "avido",
    name: "Nome",
    you_default: "Tu",
    create: "Crea il tavolo",
    invite_links: "Link di invito",
    invite_help: "Manda a ciascuno il link del suo posto. Ogni link è la chiave segreta di quel posto.",
    copy: "Copia",
    copied: "Copiato",
    open: "Apri",
    spectator_link: "Link per gli spettatori",
    sit_down: "Siediti come {name}",
    your_tables: "I tuoi tavoli",
    no_tables: "Ancora nessun tavolo.",
    hand_n: "Mano {n}",
    stock: "Tallone",
    pile: "Pozzo",
    empty: "vuoto",
    frozen: "congelato",
    stopped: "bloccato",
    red_threes: "Tre rossi",
    melds: "Combinazioni",
    no_melds: "ancora nessuna combinazione",
    your_side: "La tua squadra",
    team_n: "Squadra {n}",
    opening_needed: "apertura: servono {n}",
    opening_progress: "apertura: {p} su {n}",
    opened: "aperta",
    canasta_natural: "canasta pulita",
    canasta_mixed: "canasta sporca",
    canasta_wild: "canasta di matte",
    draw: "Pesca",
    take_pile: "Prendi il pozzo",
    meld: "Cala",
    lay_off: "Attacca a {r}",
    discard: "Scarta",
    discard_out: "Scarta e chiudi",
    go_out: "Chiudi",
    ask_partner: "Chiedi al compagno",
    answer_yes: "Sì, chiudi",
    answer_no: "No",
    retract: "Ritira l'apertura",
    end_hand: "Termina la mano",
    next_hand: "Prossima mano",
    hint_draw: "Tocca a te: pesca, oppure seleziona le carte e prendi il pozzo.",
    hint_play: "Seleziona le carte da calare o da attaccare; scarta una carta per finire il turno.",
    hint_provisional: "L'apertura non è ancora completa: cala ancora, oppure ritirala.",
    hint_answer: "{name} chiede: posso chiudere?",
    waiting_for: "Sta giocando {name}…",
    waiting_answer: "In attesa della risposta di {name}…",
    spectating: "Stai guardando questo tavolo.",
    bot_plays_you: "Un bot sta giocando al tuo posto.",
    hand_over: "La mano è finita",
    score_sheet: "Foglio dei punti",
    download_record: "Scarica la registrazione",
    match_over: "{team} vince la partita!",
    close: "Chiudi",
    show_sheet: "Punti",
    log: "Cronaca",
    scores: "Punteggi",
    total: "Totale della mano",
    before: "Prima",
    after: "Dopo",
    hand: "Mano",
    give_bot: "Fai giocare un bot",
    take_back: "Riprendi il mio posto",
    online: "in linea",
    offline: "assente",
    reconnecting: "Riconnessione…",
    connected: "Connesso",
    cards_n: "{n} carte",
    to_target: "a {n}",
    dealer: "mazziere",
    you: "tu",
    invite: "Invita",
    back_to_lobby: "Nuovo tavolo",
    language: "Lingua",
    err_stale: "Il tavolo è cambiato prima che arrivasse la tua mossa; guarda di nuovo.",
    err_not_your_turn: "Non è il tuo turno.",
    err_illegal: "Non consentito: {msg}",
    err_generic: "{msg}",
    end_went_out: "{name} ha chiuso.",
    end_stock_exhausted: "Il tallone è finito.",
    end_last_card_red_three: "L'ultima carta del tallone era un tre rosso.",
    unknown_table: "Questo tavolo non esiste.",
    bad_token: "Questo link non corrisponde a nessun posto di questo tavolo.",
    select_cards: "Selezionate: {n}",
    clear: "Annulla",
  },
};

function currentLang() {
  const saved = localStorage.getItem("canasta.lang");
  if (saved && STRINGS[saved]) return saved;
  const langs = navigator.languages || [navigator.language || "en"];
  for (const l of langs) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (STRINGS[short]) return short;
  }
  return "en";
}

let LANG = currentLang();

function t(key, params) {
  let s = (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
  if (params) {
    for (const [k, v] of Object.entries(params)) s = s.split("{" + k + "}").join(String(v));
  }
  return s;
}

function setLang(lang) {
  if (!STRINGS[lang]) return;
  LANG = lang;
  localStorage.setItem("canasta.lang", lang);
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll(".lang-switch button").forEach((b) => {
    b.classList.toggle("active", b.dataset.lang === lang);
  });
  window.dispatchEvent(new Event("langchange"));
}

function initLangSwitch() {
  document.querySelectorAll(".lang-switch button").forEach((b) => {
    b.addEventListener("click", () => setLang(b.dataset.lang));
  });
  setLang(LANG);
}

// The engine writes its log and score sheets in English; these rewrite them for Italian.
const IT_LOG = [
  [/^(.+?): draw$/, "$1 pesca"],
  [/^(.+?): take-pile$/, "$1 prende il pozzo"],
  [/^(.+?): take-pile (.+)$/, "$1 prende il pozzo con $2"],
  [/^(.+?): meld (.+)$/, "$1 cala $2"],
  [/^(.+?): lay-off (\S+) (.+)$/, "$1 attacca $3 a $2"],
  [/^(.+?): discard (.+)$/, "$1 scarta $2"],
  [/^(.+?): ask-partner$/, "$1 chiede al compagno se può chiudere"],
  [/^(.+?): answer yes$/, "$1 risponde sì"],
  [/^(.+?): answer no$/, "$1 risponde no"],
  [/^(.+?): retract$/, "$1 ritira l'apertura"],
  [/^(.+?): end-hand$/, "$1 termina la mano"],
  [/^the upcard is (.+)$/, "la carta scoperta è $1"],
  [/^the upcard (.+) is a special card$/, "la carta scoperta $1 è speciale"],
  [/^(.+?) draws and lays out the red three (.+)$/, "$1 pesca e scopre il tre rosso $2"],
  [/^(.+?) lays out the red three (.+)$/, "$1 scopre il tre rosso $2"],
  [/^(.+?) has opened with (\d+) points$/, "$1 ha aperto con $2 punti"],
  [/^(.+?) takes back its opening; its minimum rises by (\d+)$/, "$1 ritira l'apertura; il minimo sale di $2"],
  [/^the hand ends: went out$/, "la mano finisce: chiusura"],
  [/^the hand ends: stock exhausted$/, "la mano finisce: tallone esaurito"],
  [/^the hand ends: last card red three$/, "la mano finisce: l'ultima carta era un tre rosso"],
  [/^the hand ends: (.+)$/, "la mano finisce: $1"],
];

const IT_SHEET = [
  [/^Natural canasta of aces$/, "Canasta pulita di assi"],
  [/^Mixed canasta of aces$/, "Canasta sporca di assi"],
  [/^Natural canasta of black threes$/, "Canasta pulita di tre neri"],
  [/^Natural canasta$/, "Canasta pulita"],
  [/^Mixed canasta$/, "Canasta sporca"],
  [/^Wild canasta of deuces$/, "Canasta di pinelle"],
  [/^Wild canasta of six jokers and a deuce$/, "Canasta di sei jolly e una pinella"],
  [/^Wild canasta$/, "Canasta di matte"],
  [/^Five natural canastas and a mixed one$/, "Cinque canaste pulite e una sporca"],
  [/^Five canastas, natural and mixed$/, "Cinque canaste, pulite e sporche"],
  [/^Red threes left in hand \((\d+)\)$/, "Tre rossi rimasti in mano ($1)"],
  [/^Red threes \((\d+)\)$/, "Tre rossi ($1)"],
  [/^Going out concealed$/, "Chiusura in mano"],
  [/^Going out$/, "Chiusura"],
  [/^Melded cards, no canasta \(counted against\)$/, "Carte calate, senza canasta (in negativo)"],
  [/^Melded cards$/, "Carte calate"],
  [/^Cards left in hand, (.+) \(x(\d+), side had not opened\)$/, "Carte in mano, $1 (x$2, squadra non aperta)"],
  [/^Cards left in hand, (.+)$/, "Carte in mano, $1"],
  [/^Four black threes in hand, (.+)$/, "Quattro tre neri in mano, $1"],
  [/^Black threes in hand \((\d+)\), (.+)$/, "Tre neri in mano ($1), $2"],
  [/^Penalty: (.+)$/, "Penalità: $1"],
];

function rewrite(text, rules) {
  if (LANG !== "it") return text;
  for (const [re, out] of rules) {
    if (re.test(text)) return text.replace(re, out);
  }
  return text;
}

function translateLog(text) { return rewrite(text, IT_LOG); }
function translateSheet(text) { return rewrite(text, IT_SHEET); }
