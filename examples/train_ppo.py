"""Train one seat of 2-player international Canasta with PPO (PyTorch, CPU, action masking).

    pip install -e '.[train]'        # torch==2.13.0 (CPU), pettingzoo, gymnasium, numpy
    python examples/train_ppo.py --cpu-minutes 12 --plot examples/ppo_curve.png

The agent plays seat 0 of ``canasta/Canasta-v0`` (:mod:`canasta.env.gym`) against the
``random`` and the ``greedy`` bot, half of its environments against each. An episode is one
hand; the reward is the hand's score difference (divided by 1000 for learning). Illegal
actions never happen: the policy's logits are masked with the observation's
``action_mask``. Every update prints the share of the last 200 training hands won (score
difference > 0) against each opponent; at the end the trained policy (sampling its legal
actions, as in training) plays ``--eval`` fresh hands against each, each hand cut after
``--eval-steps`` of its decisions (a cut hand counts as not won), ``--plot`` draws the curve
and ``--save`` keeps the network's weights.

The budget is CPU time of this process (``--cpu-minutes``), so a busy machine does not cut
training short; torch runs on one thread.
"""

from __future__ import annotations

import argparse
import collections
import json
import time

import numpy as np
import torch
from torch import nn

from canasta.env.gym import CanastaEnv

OPPONENTS = ("random", "greedy")


class Policy(nn.Module):
    """An MLP with a masked policy head over the ``ActionCodec`` ids and a value head."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.zeros_(self.pi.weight)  # start uniform over the legal actions
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.v(h).squeeze(-1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpu-minutes", type=float, default=12.0)
    ap.add_argument("--envs", type=int, default=8, help="environments (half per opponent)")
    ap.add_argument("--steps", type=int, default=128, help="steps per environment per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--eval", type=int, default=100, help="evaluation hands per opponent")
    ap.add_argument("--eval-steps", type=int, default=1500,
                    help="most agent decisions in one evaluation hand")
    ap.add_argument("--save", default=None, help="write the trained weights (torch.save)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", default=None, help="write the curve to this PNG")
    ap.add_argument("--json", default=None, help="write the curve and results as JSON")
    args = ap.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    envs = [CanastaEnv(players=2, opponents=OPPONENTS[i % 2]) for i in range(args.envs)]
    scale = torch.tensor(envs[0].game.layout.scale())
    n_obs = envs[0].game.layout.size
    n_act = envs[0].game.codec.size
    net = Policy(n_obs, n_act)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    def tensors(obs: dict[str, np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
        return (torch.from_numpy(obs["observation"].copy()) / scale,
                torch.from_numpy(obs["action_mask"].astype(bool)))

    current = [tensors(e.reset(seed=args.seed * 1000 + i)[0]) for i, e in enumerate(envs)]
    won: dict[str, collections.deque[float]] = {o: collections.deque(maxlen=200)
                                                  for o in OPPONENTS}
    curve: list[dict[str, float]] = []
    hands = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    print(f"PPO on canasta/Canasta-v0: international, 2 players, {n_obs} observation entries, "
          f"{n_act} action ids; {args.envs} envs vs {', '.join(OPPONENTS)}")
    update = 0
    while time.process_time() - cpu0 < args.cpu_minutes * 60:
        update += 1
        buf_o, buf_m, buf_a, buf_lp, buf_v, buf_r, buf_d = [], [], [], [], [], [], []
        for _ in range(args.steps):
            obs = torch.stack([c[0] for c in current])
            mask = torch.stack([c[1] for c in current])
            with torch.no_grad():
                dist, value = net(obs, mask)
                action = dist.sample()
            rewards, dones = [], []
            for i, e in enumerate(envs):
                o, r, term, trunc, _ = e.step(int(action[i]))
                done = term or trunc
                if done:
                    won[e.specs[0]].append(1.0 if r > 0 else 0.0)
                    hands += 1
                    o, _ = e.reset(seed=int(rng.integers(2**31)))
                current[i] = tensors(o)
                rewards.append(float(r) / 1000.0)
                dones.append(float(done))
            buf_o.append(obs)
            buf_m.append(mask)
            buf_a.append(action)
            buf_lp.append(dist.log_prob(action))
            buf_v.append(value)
            buf_r.append(torch.tensor(rewards))
            buf_d.append(torch.tensor(dones))
        with torch.no_grad():
            _, last_v = net(torch.stack([c[0] for c in current]),
                            torch.stack([c[1] for c in current]))
        # Generalized advantage estimation, per environment, cut at the end of each hand.
        adv = torch.zeros(args.steps, args.envs)
        gae = torch.zeros(args.envs)
        for t in reversed(range(args.steps)):
            nxt = last_v if t == args.steps - 1 else buf_v[t + 1]
            live = 1.0 - buf_d[t]
            delta = buf_r[t] + args.gamma * nxt * live - buf_v[t]
            gae = delta + args.gamma * args.lam * live * gae
            adv[t] = gae
        values = torch.stack(buf_v)
        returns = adv + values
        flat = (torch.cat(buf_o), torch.cat(buf_m), torch.cat(buf_a), torch.cat(buf_lp),
                returns.reshape(-1), adv.reshape(-1))
        size = flat[0].shape[0]
        for _ in range(args.epochs):
            for idx in torch.randperm(size).split(args.minibatch):
                o, m, a, lp, ret, ad = (x[idx] for x in flat)
                ad = (ad - ad.mean()) / (ad.std() + 1e-8)
                dist, v = net(o, m)
                ratio = torch.exp(dist.log_prob(a) - lp)
                pg = -torch.min(ratio * ad, ratio.clamp(1 - args.clip, 1 + args.clip) * ad)
                loss = (pg.mean() + 0.5 * ((v - ret) ** 2).mean()
                        - args.entropy * dist.entropy().mean())
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        point = {"update": update, "hands": hands,
                 "cpu_minutes": (time.process_time() - cpu0) / 60,
                 **{f"win_{o}": (sum(won[o]) / len(won[o]) if won[o] else float("nan"))
                    for o in OPPONENTS}}
        curve.append(point)
        print(f"update {update:4d}  hands {hands:6d}  cpu {point['cpu_minutes']:5.1f} min  "
              + "  ".join(f"win vs {o} {100 * point[f'win_{o}']:5.1f}%" for o in OPPONENTS),
              flush=True)

    cpu_train = (time.process_time() - cpu0) / 60
    if args.save:
        torch.save(net.state_dict(), args.save)
    results = {o: evaluate(net, scale, o, args.eval, args.seed + 7, args.eval_steps)
               for o in OPPONENTS}
    cpu = (time.process_time() - cpu0) / 60
    wall = (time.perf_counter() - wall0) / 60
    print(f"trained {update} updates, {hands} hands: {cpu_train:.1f} CPU minutes; with the "
          f"evaluation {cpu:.1f} CPU minutes ({wall:.1f} minutes of wall time)")
    for o, (rate, mean) in results.items():
        print(f"evaluation vs {o}: wins {100 * rate:.1f}% of {args.eval} hands, "
              f"mean score difference {mean:+.0f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"curve": curve, "eval": results, "cpu_minutes": cpu,
                       "wall_minutes": wall, "args": vars(args)}, f, indent=1)
    if args.plot:
        plot(curve, results, args.plot)


def evaluate(net: Policy, scale: torch.Tensor, opponent: str, hands: int, seed: int,
             max_steps: int) -> tuple[float, float]:
    """The policy (sampling, as in training) against ``opponent`` on ``hands`` fresh deals,
    each cut after ``max_steps`` of its decisions (then neither won nor scored): (share of
    hands won, mean score difference of the finished hands).

    Sampling rather than the most likely action: a deterministic policy against a bot can
    make a hand last very long (the pile taken back and forth, the stock untouched)."""
    env = CanastaEnv(players=2, opponents=opponent)
    torch.manual_seed(seed)
    wins, total, finished = 0, 0.0, 0
    for h in range(hands):
        obs, _ = env.reset(seed=10**6 * seed + h)
        for _ in range(max_steps):
            o = torch.from_numpy(obs["observation"].copy()) / scale
            m = torch.from_numpy(obs["action_mask"].astype(bool))
            with torch.no_grad():
                dist, _ = net(o[None], m[None])
            obs, r, term, trunc, _ = env.step(int(dist.sample()))
            if term or trunc:
                wins += r > 0
                total += float(r)
                finished += 1
                break
    return wins / hands, total / max(finished, 1)


def plot(curve: list[dict[str, float]], results: dict[str, tuple[float, float]],
         path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    x = [p["cpu_minutes"] for p in curve]
    for o in OPPONENTS:
        ax.plot(x, [100 * p[f"win_{o}"] for p in curve],
                label=f"vs {o} (final eval {100 * results[o][0]:.0f}%)")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("CPU minutes of training")
    ax.set_ylabel("hands won, last 200 (%)")
    ax.set_ylim(0, 100)
    ax.set_title("PPO, one seat of 2-player international Canasta")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
