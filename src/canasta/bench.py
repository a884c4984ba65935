"""``python -m canasta.bench``: the engine benchmark (see :mod:`canasta.sim.bench`)."""

from canasta.sim.bench import main

if __name__ == "__main__":
    main()
