"""Play without a server: the engine and the bots inside a browser page.

The offline table (``/offline/`` of ``canasta serve``, installable as a progressive web app)
runs the pure-Python core in the page with Pyodide (CPython compiled to WebAssembly). This
package is what runs there: :mod:`canasta.offline.table` (one player against bots, as JSON in
and out) and :mod:`canasta.offline.bundle` (the zip of pure-Python sources the page loads).
It imports the core, the bots and the catalogues only: no server, no numpy, no threads.
"""
