"""Optional accounts and ratings of the table server: ``glicko`` (Glicko-2), ``ratings``
(what a rated match does to ratings), ``anchors`` (the bots' fixed ratings and the command
that measures them), ``store`` (the transactions), ``service`` (passwords, sign-ins, rated
tables, settlement), ``messages`` (the bodies) and ``routes`` (the pages and the API, included
in the app). docs/web.md, "Accounts and ratings", describes them."""
