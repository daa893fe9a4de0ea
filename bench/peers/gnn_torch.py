#!/usr/bin/python3
"""PyTorch implementation of memplace's hand-written GNN (the contract is docs/gnn.md).

Run it with /usr/bin/python3: Debian's python3-torch (1.13) and numpy load only there; the
`python3` first on PATH may be a different interpreter without torch.

Two modes, run from the repository root (paths are relative to the working directory):

  reference  Builds the reference fixture that the C++ GNN test compares against (in the manner
             of llm.c's test_gpt2). Float64, both graphs of the observation file as one batch,
             a "policy" model (trunk + policy head + value head) and a "critic" model (trunk +
             Q head) with parameters drawn from a fixed seed and rounded to float32, a linear
             loss with random coefficients, autograd gradients, and a sampling section
             (log-probability and entropy of a categorical action, with their gradients).

      /usr/bin/python3 bench/peers/gnn_torch.py reference \\
          --observations tests/data/gnn/resnet50.json --out tests/data/gnn/reference.json

  bench      The benchmark peer of the C++ GNN: float32, one thread, graph 0 of the file. One
             iteration = zero grads, forward, linear loss, backward; prints one JSON line with
             the median and minimum iteration time.

      /usr/bin/python3 bench/peers/gnn_torch.py bench \\
          --observations tests/data/gnn/bert-base.json --hidden 128 --layers 3 \\
          [--repeat 50] [--warmup 5] [--model policy|critic] [--batch 32]

Implementation notes: every linear layer is y = x W + b with W stored (in, out), done with
torch.addmm. The mean aggregations are precomputed row-normalised sparse COO matrices applied
with torch.sparse.mm (faster here than index_add_ or CSR, forward and backward). The Q head's
action term is the linear layer over one-hot actions described in docs/gnn.md, one matmul for
all samples of a graph.
"""

import argparse
import ctypes
import json
import math
import os
import statistics
import sys
import tempfile
import time

# Single-threaded in both modes: the bench compares against the single-threaded C++ GNN, and the
# reference fixture is reproducible. Must be set before torch (and its BLAS) is loaded.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import torch  # noqa: E402  (imported after the thread settings on purpose)
import torch.nn.functional as F  # noqa: E402

REFERENCE_SEED = 20261121
REFERENCE_HIDDEN = 16
REFERENCE_LAYERS = 3
REFERENCE_Q_GRAPHS = [0, 0, 0, 1, 1]  # graph of each Q sample in the fixture
LAYER_NORM_EPS = 1e-5


# --------------------------------------------------------------------------------------------
# Observations and the graph batch
# --------------------------------------------------------------------------------------------

def load_observations(path):
    """Reads and validates an observation file (format: tests/data/gnn/*.json)."""
    if not os.path.isfile(path):
        sys.exit(f"gnn_torch.py: observation file not found: {path}")
    with open(path) as f:
        data = json.load(f)
    graphs = data.get("graphs")
    if not graphs:
        sys.exit(f"gnn_torch.py: {path} has no graphs")
    features = graphs[0]["num_features"]
    for k, g in enumerate(graphs):
        n, nf, edges = g["num_nodes"], g["num_features"], g["edges"]
        if nf != features:
            sys.exit(f"gnn_torch.py: {path}: graph {k} has {nf} features, graph 0 has {features}")
        if len(g["nodes"]) != n * nf:
            sys.exit(f"gnn_torch.py: {path}: graph {k}: nodes has {len(g['nodes'])} values, "
                     f"expected {n}*{nf}")
        if len(edges) % 2 or any(not 0 <= v < n for v in edges):
            sys.exit(f"gnn_torch.py: {path}: graph {k}: malformed edge list")
    return data


def mean_matrix(rows, cols, n, dtype):
    """Sparse n x n matrix A with A[r, c] = 1/|{c : (r, c)}|, so (A h)_r is the mean of h over
    the cols paired with r (0 for an r with no pairs). Pairs are unique (no parallel edges)."""
    count = torch.bincount(rows, minlength=n).to(dtype)
    values = 1.0 / count[rows]
    return torch.sparse_coo_tensor(torch.stack([rows, cols]), values, (n, n)).coalesce()


class GraphBatch:
    """Disjoint union of graphs (as in PyTorch Geometric): node rows stacked, edges renumbered.

    mean_in(h)_i is the mean of h over node i's producers (edges j -> i), mean_out(h)_i the
    mean over its consumers; both are 0 for a node without such neighbours."""

    def __init__(self, graphs, dtype):
        self.sizes = [g["num_nodes"] for g in graphs]
        self.offsets = [0]
        for n in self.sizes:
            self.offsets.append(self.offsets[-1] + n)
        n_total = self.offsets[-1]
        self.x = torch.tensor([v for g in graphs for v in g["nodes"]], dtype=dtype)
        self.x = self.x.view(n_total, graphs[0]["num_features"])

        src, dst = [], []
        self.local_in = []  # per graph, its own mean_in matrix (used by the Q head)
        for g, offset in zip(graphs, self.offsets):
            e = len(g["edges"]) // 2
            s = torch.tensor(g["edges"][:e], dtype=torch.long)
            t = torch.tensor(g["edges"][e:], dtype=torch.long)
            self.local_in.append(mean_matrix(t, s, g["num_nodes"], dtype))
            src.append(s + offset)
            dst.append(t + offset)
        src, dst = torch.cat(src), torch.cat(dst)
        self.a_in = mean_matrix(dst, src, n_total, dtype)   # row i averages producers of i
        self.a_out = mean_matrix(src, dst, n_total, dtype)  # row i averages consumers of i

    @property
    def num_graphs(self):
        return len(self.sizes)

    def rows(self, g):
        """The node rows of graph g, as (start, length) for Tensor.narrow."""
        return self.offsets[g], self.sizes[g]

    def mean_in(self, h):
        return torch.sparse.mm(self.a_in, h)

    def mean_out(self, h):
        return torch.sparse.mm(self.a_out, h)


# --------------------------------------------------------------------------------------------
# Parameters: layout (docs/gnn.md, "Parameters") and initialisation
# --------------------------------------------------------------------------------------------

def parameter_layout(features, hidden, layers, memories, heads):
    """[(name, rows, cols, init, k)] in the order of agents/nn/parameters.hpp.

    init is "uniform" (U(-k, k)), "gain" or "norm_bias"; heads is a subset of
    ("policy", "value", "q"), always laid out in that order."""
    h, m = hidden, memories
    out = []

    def linear(name, fan_in, fan_out):
        k = 1.0 / math.sqrt(fan_in)
        out.append((f"{name}.weight", fan_in, fan_out, "uniform", k))
        out.append((f"{name}.bias", 1, fan_out, "uniform", k))

    linear("encoder", features, h)
    for l in range(layers):
        linear(f"conv{l}", 3 * h, h)
        out.append((f"conv{l}.norm.gain", 1, h, "gain", None))
        out.append((f"conv{l}.norm.bias", 1, h, "norm_bias", None))
    if "policy" in heads:
        linear("policy.hidden", h, h)
        linear("policy.out", h, 2 * m)
    if "value" in heads:
        linear("value.hidden", 2 * h, h)
        linear("value.out", h, 1)
    if "q" in heads:
        linear("q.node", h, h)
        k = 1.0 / math.sqrt(3 * m)  # the three tables act as one linear layer over 3M one-hots
        for table in ("weight_action", "activation_action", "input_action"):
            out.append((f"q.{table}", m, h, "uniform", k))
        linear("q.hidden", 2 * h, h)
        linear("q.out", h, 1)
    return out


def uniform(gen, count, low, high):
    """count float64 values uniform in [low, high) from gen."""
    return torch.rand(count, generator=gen, dtype=torch.float64) * (high - low) + low


def to_float32_values(t):
    """Rounds to float32 and back to float64, so a float C++ run sees identical values."""
    return t.float().double()


def init_parameters(layout, gen, dtype, norm_jitter):
    """Draws every tensor of the layout in order from gen; returns {name: leaf tensor}.

    Layer norms start at gain 1, bias 0 (docs/gnn.md); norm_jitter > 0 perturbs them by
    U(-norm_jitter, norm_jitter) so that the fixture tests their gradients."""
    params = {}
    for name, rows, cols, init, k in layout:
        n = rows * cols
        if init == "uniform":
            values = uniform(gen, n, -k, k)
        elif init == "gain":
            values = 1.0 + (uniform(gen, n, -norm_jitter, norm_jitter) if norm_jitter
                            else torch.zeros(n, dtype=torch.float64))
        else:  # norm_bias
            values = (uniform(gen, n, -norm_jitter, norm_jitter) if norm_jitter
                      else torch.zeros(n, dtype=torch.float64))
        values = to_float32_values(values).to(dtype)
        params[name] = values.view(rows, cols).requires_grad_()
    return params


# --------------------------------------------------------------------------------------------
# The network (docs/gnn.md, "Architecture")
# --------------------------------------------------------------------------------------------

def linear(x, p, name):
    """y = x W + b, W stored (in, out)."""
    return torch.addmm(p[f"{name}.bias"], x, p[f"{name}.weight"])


def trunk(p, batch, layers):
    """Encoder then `layers` residual bidirectional convolutions; returns h_L (N x H)."""
    h = torch.relu(linear(batch.x, p, "encoder"))
    hidden = h.shape[1]
    for l in range(layers):
        c = torch.cat([h, batch.mean_in(h), batch.mean_out(h)], dim=1)   # N x 3H
        z = linear(c, p, f"conv{l}")
        u = F.layer_norm(z, (hidden,), p[f"conv{l}.norm.gain"].view(-1),
                         p[f"conv{l}.norm.bias"].view(-1), eps=LAYER_NORM_EPS)
        h = h + torch.relu(u)
    return h


def policy_head(p, h):
    """Per-node logits, N x 2M: columns 0..M-1 the weight tensor, M..2M-1 the output tensor."""
    return linear(torch.tanh(linear(h, p, "policy.hidden")), p, "policy.out")


def mean_max_pool(x, dim):
    """[mean, max] over dim, concatenated along the last dimension."""
    return torch.cat([x.mean(dim), x.amax(dim)], dim=-1)


def value_head(p, h, batch):
    """One scalar per graph of the batch, shape (G,)."""
    pooled = torch.stack([mean_max_pool(h.narrow(0, *batch.rows(g)), 0)
                          for g in range(batch.num_graphs)])
    return linear(torch.tanh(linear(pooled, p, "value.hidden")), p, "value.out").view(-1)


def action_features(actions, a_in, memories, dtype):
    """[onehot(a_w), onehot(a_a), mean_in(onehot(a_a))] for B actions of one graph.

    actions: B x 2N long (entry 2i = memory of node i's weight, 2i+1 = of its output);
    a_in: that graph's mean_in matrix. Returns B x N x 3M (constants, no gradient)."""
    b, n = actions.shape[0], actions.shape[1] // 2
    weight = F.one_hot(actions[:, 0::2], memories).to(dtype)             # B x N x M
    output = F.one_hot(actions[:, 1::2], memories).to(dtype)             # B x N x M
    by_node = output.transpose(0, 1).reshape(n, b * memories)            # N x (B M)
    inputs = torch.sparse.mm(a_in, by_node).view(n, b, memories).transpose(0, 1)
    return torch.cat([weight, output, inputs], dim=2)


def q_head(p, h, batch, sample_graphs, actions, memories):
    """One scalar per (graph, action) sample, shape (B,).

    sample_graphs[b] is the graph of sample b, actions[b] its action (2 N_g memories). The
    samples of each graph are processed together; pooled rows are returned in sample order."""
    u = linear(h, p, "q.node")                                           # N x H, once per batch
    tables = torch.cat([p["q.weight_action"], p["q.activation_action"], p["q.input_action"]])
    pooled, order = [], []
    for g in sorted(set(sample_graphs)):
        samples = [b for b, sg in enumerate(sample_graphs) if sg == g]
        a = torch.stack([actions[b] for b in samples])
        x = action_features(a, batch.local_in[g], memories, h.dtype)    # B_g x N_g x 3M
        r = torch.relu(u.narrow(0, *batch.rows(g)) + x @ tables)         # B_g x N_g x H
        pooled.append(mean_max_pool(r, 1))                                # B_g x 2H
        order += samples
    pooled = torch.cat(pooled)
    if order != sorted(order):  # back to sample order
        pooled = pooled[torch.tensor(order).argsort()]
    return linear(torch.tanh(linear(pooled, p, "q.hidden")), p, "q.out").view(-1)


# --------------------------------------------------------------------------------------------
# Mode 1: the reference fixture
# --------------------------------------------------------------------------------------------

def flat(t):
    """A tensor as a flat list of Python floats (float64 repr round-trips exactly)."""
    return t.detach().double().reshape(-1).tolist()


def parameter_records(params, layout):
    return [{"name": name, "rows": rows, "cols": cols, "values": flat(params[name])}
            for name, rows, cols, _, _ in layout]


def gradient_records(params, layout):
    return [{"name": name, "values": flat(params[name].grad)} for name, *_ in layout]


def sampling_section(logits_graph0, action, memories):
    """log-prob and entropy sums of a categorical per row, with gradients w.r.t. the logits.

    logits_graph0: N_0 x 2M policy logits, viewed as 2N_0 x M (row 2i = weight of node i,
    row 2i+1 = its output); action: one memory per row."""
    rows = logits_graph0.shape[0] * 2
    z = logits_graph0.detach().reshape(rows, memories).clone().requires_grad_()
    log_p = F.log_softmax(z, dim=1)
    log_prob_sum = log_p.gather(1, action.view(-1, 1)).sum()
    entropy_sum = -(log_p.exp() * log_p).sum()
    (log_prob_grad,) = torch.autograd.grad(log_prob_sum, z, retain_graph=True)
    (entropy_grad,) = torch.autograd.grad(entropy_sum, z)
    return {"rows": rows, "memories": memories, "actions": action.tolist(),
            "log_prob_sum": log_prob_sum.item(), "entropy_sum": entropy_sum.item(),
            "log_prob_grad": flat(log_prob_grad), "entropy_grad": flat(entropy_grad)}


def write_json_atomically(obj, path):
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".gnn_torch.", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(obj, f)
            f.write("\n")
        umask = os.umask(0)  # mkstemp creates 0600; give the file the usual permissions
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def run_reference(args):
    data = load_observations(args.observations)
    dtype = torch.float64
    torch.set_num_threads(1)
    batch = GraphBatch(data["graphs"], dtype)
    if max(REFERENCE_Q_GRAPHS) >= batch.num_graphs:
        sys.exit(f"gnn_torch.py: {args.observations} needs at least "
                 f"{max(REFERENCE_Q_GRAPHS) + 1} graphs")
    f, h, layers, m = batch.x.shape[1], REFERENCE_HIDDEN, REFERENCE_LAYERS, data["memories"]

    # One generator for everything, in this order: policy parameters, critic parameters,
    # Q-sample actions, loss coefficients.
    gen = torch.Generator().manual_seed(REFERENCE_SEED)
    policy_layout = parameter_layout(f, h, layers, m, ("policy", "value"))
    critic_layout = parameter_layout(f, h, layers, m, ("q",))
    policy = init_parameters(policy_layout, gen, dtype, norm_jitter=0.2)
    critic = init_parameters(critic_layout, gen, dtype, norm_jitter=0.2)
    actions = [torch.randint(0, m, (2 * batch.sizes[g],), generator=gen)
               for g in REFERENCE_Q_GRAPHS]
    n_total = batch.x.shape[0]
    r_logits = to_float32_values(uniform(gen, n_total * 2 * m, -1.0, 1.0)).view(n_total, 2 * m)
    r_value = to_float32_values(uniform(gen, batch.num_graphs, -1.0, 1.0))
    r_q = to_float32_values(uniform(gen, len(REFERENCE_Q_GRAPHS), -1.0, 1.0))

    # Policy model: trunk + policy head + value head.
    h_policy = trunk(policy, batch, layers)
    logits = policy_head(policy, h_policy)
    values = value_head(policy, h_policy, batch)
    loss_policy = (logits * r_logits).sum() + (values * r_value).sum()
    loss_policy.backward()

    # Critic model: trunk + Q head.
    h_critic = trunk(critic, batch, layers)
    q = q_head(critic, h_critic, batch, REFERENCE_Q_GRAPHS, actions, m)
    loss_critic = (q * r_q).sum()
    loss_critic.backward()

    fixture = {
        "generator": "bench/peers/gnn_torch.py reference",
        "torch_version": str(torch.__version__),
        "seed": REFERENCE_SEED,
        "observations": args.observations,
        "config": {"input_features": f, "hidden": h, "conv_layers": layers, "memories": m},
        "q_samples": {"graph": REFERENCE_Q_GRAPHS, "actions": [a.tolist() for a in actions]},
        "coefficients": {"logits": flat(r_logits), "values": flat(r_value), "q": flat(r_q)},
        "policy": {
            "parameters": parameter_records(policy, policy_layout),
            "embeddings": flat(h_policy),
            "logits": flat(logits),
            "values": flat(values),
            "loss": loss_policy.item(),
            "gradients": gradient_records(policy, policy_layout),
        },
        "critic": {
            "parameters": parameter_records(critic, critic_layout),
            "embeddings": flat(h_critic),
            "q": flat(q),
            "loss": loss_critic.item(),
            "gradients": gradient_records(critic, critic_layout),
        },
        "sampling": sampling_section(logits.narrow(0, *batch.rows(0)), actions[0], m),
    }
    write_json_atomically(fixture, args.out)
    print(f"wrote {args.out}: policy loss {loss_policy.item()!r}, "
          f"critic loss {loss_critic.item()!r}")


# --------------------------------------------------------------------------------------------
# Mode 2: the benchmark peer
# --------------------------------------------------------------------------------------------

def openblas_core(library):
    """The kernels OpenBLAS chose for this CPU (or was told to use by OPENBLAS_CORETYPE)."""
    try:
        core = ctypes.CDLL(library).openblas_get_corename
    except (OSError, AttributeError):
        return "unknown"
    core.restype = ctypes.c_char_p
    return core().decode()


def detect_blas():
    """The BLAS torch actually loaded, from /proc/self/maps after a matmul.

    The reference libblas is only mapped when it is the libblas.so.3 that libtorch resolved
    (e.g. LD_LIBRARY_PATH or LD_PRELOAD), and then it provides sgemm_ ahead of the OpenBLAS
    that Debian's liblapack still pulls in, so it is checked first."""
    torch.ones(64, 64) @ torch.ones(64, 64)
    with open("/proc/self/maps") as f:
        paths = {line.split()[-1] for line in f if "/" in line}
    if any("/blas/libblas.so" in path for path in paths):
        return "reference"
    openblas = sorted(path for path in paths if "libopenblas" in path)
    if openblas:
        return f"openblas ({openblas_core(openblas[0])} kernels)"
    if any("libmkl" in path for path in paths):
        return "mkl"
    return "unknown"


def run_bench(args):
    data = load_observations(args.observations)
    dtype = torch.float32
    torch.set_num_threads(1)
    batch = GraphBatch(data["graphs"][:1], dtype)  # graph 0 only
    f, m, n = batch.x.shape[1], data["memories"], batch.sizes[0]

    gen = torch.Generator().manual_seed(REFERENCE_SEED)
    heads = ("policy",) if args.model == "policy" else ("q",)
    params = init_parameters(parameter_layout(f, args.hidden, args.layers, m, heads), gen,
                             dtype, norm_jitter=0.0)
    if args.model == "policy":
        r = uniform(gen, n * 2 * m, -1.0, 1.0).to(dtype).view(n, 2 * m)

        def forward():
            return (policy_head(params, trunk(params, batch, args.layers)) * r).sum()
    else:
        sample_graphs = [0] * args.batch
        actions = [torch.randint(0, m, (2 * n,), generator=gen) for _ in sample_graphs]
        r = uniform(gen, args.batch, -1.0, 1.0).to(dtype)

        def forward():
            h = trunk(params, batch, args.layers)
            return (q_head(params, h, batch, sample_graphs, actions, m) * r).sum()

    def iteration():
        for t in params.values():
            t.grad = None
        forward().backward()

    for _ in range(args.warmup):
        iteration()
    times_ms = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        iteration()
        times_ms.append((time.perf_counter() - start) * 1e3)

    print(json.dumps({
        "peer": "pytorch", "torch": str(torch.__version__), "blas": detect_blas(),
        "threads": torch.get_num_threads(), "workload": data.get("workload"), "nodes": n,
        "model": args.model, "hidden": args.hidden, "layers": args.layers,
        "batch": args.batch if args.model == "critic" else 1, "runs": args.repeat,
        "median_ms": statistics.median(times_ms), "min_ms": min(times_ms),
    }))


# --------------------------------------------------------------------------------------------

def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="PyTorch peer of memplace's GNN (docs/gnn.md). Run with /usr/bin/python3.")
    sub = parser.add_subparsers(dest="mode", required=True)

    ref = sub.add_parser("reference", help="write the float64 reference fixture")
    ref.add_argument("--observations", required=True, help="observation JSON (>= 2 graphs)")
    ref.add_argument("--out", required=True, help="fixture JSON to write")

    bench = sub.add_parser("bench", help="time forward + backward in float32, one thread")
    bench.add_argument("--observations", required=True, help="observation JSON (graph 0 used)")
    bench.add_argument("--hidden", type=positive_int, default=128)
    bench.add_argument("--layers", type=positive_int, default=3)
    bench.add_argument("--repeat", type=positive_int, default=50)
    bench.add_argument("--warmup", type=int, default=5)
    bench.add_argument("--model", choices=("policy", "critic"), default="policy")
    bench.add_argument("--batch", type=positive_int, default=32,
                       help="action samples per iteration (critic)")
    args = parser.parse_args(argv)
    if args.mode == "reference" and not os.path.isdir(
            os.path.dirname(os.path.abspath(args.out))):
        parser.error(f"output directory does not exist: {os.path.dirname(args.out)}")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.mode == "reference":
        run_reference(args)
    else:
        run_bench(args)


if __name__ == "__main__":
    main()
