// Starting a network from a trained one (fine-tuning: `memplace train --init-policy`, the
// generalization track of docs/table.md): every tensor both have is copied — the trunk, and the
// policy or value head where both have it; what only `network` has (a critic's Q head, a value
// head the trained policy lacks) keeps its initialisation.
#pragma once

#include <cstddef>

#include "agents/nn/gnn.hpp"

namespace memplace::nn {

// Returns the number of tensors copied. Throws InputError naming both configs unless the trunks
// match (input features, hidden width, convolution layers) and, where both have a policy head,
// the memories do.
std::size_t start_from(const Gnn<float>& trained, Gnn<float>& network);

// Divides the policy head's logits by `temperature` (> 0) by scaling its output layer: every
// tensor's memories keep their order of preference, held less surely for a temperature above 1.
// A policy trained across graphs ends near-deterministic, and a fine-tune from it samples the same
// mapping batch after batch; tempered, it explores around it. InputError for a network without a
// policy head or a temperature that is not a positive number.
void temper_policy(Gnn<float>& network, double temperature);

}  // namespace memplace::nn
