"""Tables and play: the live tables of a process, the one path of every change, the seats
(people, bots, the turn clock, the away bot), hints and undo, and the engine calls in worker
threads with a time budget."""
