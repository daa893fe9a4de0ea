// Evolution's checkpoint: the whole state, so a resumed run continues bit-identically (the
// algorithm is in evolution.cpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "agents/evolution/evolution.hpp"

namespace memplace::agents {

void Evolution::save(StateWriter& out, std::string_view prefix) const {
  out.put(state_key(prefix, "generation"), generation_);
  out.put(state_key(prefix, "rng"), rng_);
  std::vector<std::uint8_t> kinds;
  for (const Individual& ind : individuals_)
    kinds.push_back(static_cast<std::uint8_t>(ind.kind));
  out.put_array<std::uint8_t>(state_key(prefix, "kinds"), kinds);
  for (std::size_t i = 0; i < individuals_.size(); ++i) {
    const Individual& ind = individuals_[i];
    const std::string slot = state_key(prefix, "slot" + std::to_string(i));
    if (ind.kind == IndividualKind::gnn) {
      out.put_array<float>(state_key(slot, "parameters"), ind.gnn->parameters().values());
    } else {
      out.put_array<float>(state_key(slot, "priors"), ind.chromosome.priors());
      out.put_array<float>(state_key(slot, "temperatures"), ind.chromosome.temperatures());
    }
  }
  // The memo, in key order (an unordered_map's order is not part of the state).
  std::vector<std::uint64_t> keys;
  for (const auto& entry : memo_)
    keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  std::vector<double> values;
  for (const std::uint64_t k : keys)
    values.push_back(memo_.at(k));
  out.put_array<std::uint64_t>(state_key(prefix, "memo_keys"), keys);
  out.put_array<double>(state_key(prefix, "memo_rewards"), values);
  out.put(state_key(prefix, "has_champion"), static_cast<std::uint64_t>(champion_.has_value()));
  out.put_array<float>(state_key(prefix, "champion"),
                       champion_ ? champion_->values() : std::span<const float>{});
  out.put(state_key(prefix, "champion_fitness"), champion_fitness_);
  // This generation.
  out.put(state_key(prefix, "prepared"), static_cast<std::uint64_t>(prepared_));
  std::vector<std::uint64_t> owners;
  std::vector<std::uint8_t> mappings;
  for (const Candidate& c : candidates_) {
    owners.push_back(c.individual);
    mappings.insert(mappings.end(), c.mapping.begin(), c.mapping.end());
  }
  out.put_array<std::uint64_t>(state_key(prefix, "candidates"), owners);
  out.put_array<std::uint8_t>(state_key(prefix, "candidate_mappings"), mappings);
  out.put_array<double>(state_key(prefix, "rewards"), rewards_);
  std::vector<std::uint64_t> offsets{0}, sources;
  for (const auto& s : sources_) {
    sources.insert(sources.end(), s.begin(), s.end());
    offsets.push_back(sources.size());
  }
  out.put_array<std::uint64_t>(state_key(prefix, "source_offsets"), offsets);
  out.put_array<std::uint64_t>(state_key(prefix, "sources"), sources);
  out.put_array<double>(state_key(prefix, "known"), known_);
  out.put_array<double>(state_key(prefix, "fitness"), fitness_);
  // Hooks.
  out.put(state_key(prefix, "migrants"), static_cast<std::uint64_t>(migrants_.size()));
  for (std::size_t k = 0; k < migrants_.size(); ++k)
    out.put_array<float>(state_key(prefix, "migrant") + std::to_string(k), migrants_[k].values());
  out.put(state_key(prefix, "seeds"), static_cast<std::uint64_t>(seeds_.size()));
  for (std::size_t k = 0; k < seeds_.size(); ++k)
    out.put_array<float>(state_key(prefix, "seed") + std::to_string(k), seeds_[k]);
  out.put_array<std::uint64_t>(state_key(prefix, "migrant_slots"), migrant_slots_);
  out.put_array<std::uint64_t>(state_key(prefix, "seed_slots"), seed_slots_);
  for (const auto& [name, stats] :
       {std::pair{"migration_stats", &stats_}, std::pair{"seed_stats", &seed_stats_}}) {
    const std::vector<std::uint64_t> counts{stats->migrants, stats->elite, stats->selected,
                                            stats->discarded};
    out.put_array<std::uint64_t>(state_key(prefix, name), counts);
  }
}

void Evolution::load(StateReader& in, std::string_view prefix) {
  auto fail = [&](const std::string& what) { throw std::runtime_error(in.source() + ": " + what); };
  generation_ = in.get_u64(state_key(prefix, "generation"));
  rng_ = in.get_rng(state_key(prefix, "rng"));
  const std::vector<std::uint8_t> kinds = in.get_array<std::uint8_t>(state_key(prefix, "kinds"));
  if (kinds.size() != individuals_.size()) fail("the population has another size");
  for (std::size_t i = 0; i < individuals_.size(); ++i) {
    Individual& ind = individuals_[i];
    if (kinds[i] != static_cast<std::uint8_t>(ind.kind)) fail("slot kinds differ");
    const std::string slot = state_key(prefix, "slot" + std::to_string(i));
    if (ind.kind == IndividualKind::gnn) {
      in.get_array_into<float>(state_key(slot, "parameters"), ind.gnn->parameters().values());
    } else {
      std::vector<float> priors = in.get_array<float>(state_key(slot, "priors"));
      std::vector<float> temperatures = in.get_array<float>(state_key(slot, "temperatures"));
      if (temperatures.size() != tensors_) fail("a chromosome has another number of tensors");
      ind.chromosome =
          BoltzmannChromosome(std::move(priors), std::move(temperatures), gnn_config_.memories);
    }
  }
  const std::vector<std::uint64_t> keys =
      in.get_array<std::uint64_t>(state_key(prefix, "memo_keys"));
  const std::vector<double> values = in.get_array<double>(state_key(prefix, "memo_rewards"));
  if (keys.size() != values.size()) fail("bad memo");
  memo_.clear();
  for (std::size_t k = 0; k < keys.size(); ++k)
    memo_.emplace(keys[k], values[k]);

  champion_.reset();
  if (in.get_u64(state_key(prefix, "has_champion")) != 0) {
    champion_.emplace(nn::gnn_layout(gnn_config_));
    in.get_array_into<float>(state_key(prefix, "champion"), champion_->values());
  } else if (!in.get_array<float>(state_key(prefix, "champion")).empty()) {
    fail("bad champion");
  }
  champion_fitness_ = in.get_f64(state_key(prefix, "champion_fitness"));
  prepared_ = in.get_u64(state_key(prefix, "prepared")) != 0;
  const std::vector<std::uint64_t> owners =
      in.get_array<std::uint64_t>(state_key(prefix, "candidates"));
  const std::vector<std::uint8_t> mappings =
      in.get_array<std::uint8_t>(state_key(prefix, "candidate_mappings"));
  if (mappings.size() != owners.size() * tensors_) fail("bad candidate mappings");
  candidates_.clear();
  for (std::size_t c = 0; c < owners.size(); ++c) {
    if (owners[c] >= individuals_.size()) fail("bad candidate owner");
    const auto first = mappings.begin() + static_cast<std::ptrdiff_t>(c * tensors_);
    candidates_.push_back(
        Candidate{owners[c], Mapping(first, first + static_cast<std::ptrdiff_t>(tensors_))});
  }
  rewards_ = in.get_array<double>(state_key(prefix, "rewards"));
  if (rewards_.size() != candidates_.size()) fail("bad rewards");
  unreported_ = static_cast<std::size_t>(
      std::count_if(rewards_.begin(), rewards_.end(), [](double r) { return std::isnan(r); }));
  const std::vector<std::uint64_t> offsets =
      in.get_array<std::uint64_t>(state_key(prefix, "source_offsets"));
  const std::vector<std::uint64_t> sources =
      in.get_array<std::uint64_t>(state_key(prefix, "sources"));
  if (offsets.size() != individuals_.size() + 1 || offsets.back() != sources.size())
    fail("bad candidate sources");
  sources_.assign(individuals_.size(), {});
  for (std::size_t i = 0; i < individuals_.size(); ++i) {
    if (offsets[i] > offsets[i + 1]) fail("bad candidate sources");
    for (std::uint64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      if (sources[k] >= candidates_.size()) fail("bad candidate source");
      sources_[i].push_back(sources[k]);
    }
  }
  known_ = in.get_array<double>(state_key(prefix, "known"));
  if (known_.size() != individuals_.size()) fail("bad known rewards");
  fitness_ = in.get_array<double>(state_key(prefix, "fitness"));

  migrants_.clear();
  const std::uint64_t migrants = in.get_u64(state_key(prefix, "migrants"));
  for (std::uint64_t k = 0; k < migrants; ++k) {
    nn::ParameterSet<float> params(nn::gnn_layout(gnn_config_));
    in.get_array_into<float>(state_key(prefix, "migrant") + std::to_string(k), params.values());
    migrants_.push_back(std::move(params));
  }
  seeds_.clear();
  const std::uint64_t seeds = in.get_u64(state_key(prefix, "seeds"));
  for (std::uint64_t k = 0; k < seeds; ++k) {
    seeds_.push_back(in.get_array<float>(state_key(prefix, "seed") + std::to_string(k)));
    if (seeds_.back().size() != tensors_ * gnn_config_.memories) fail("bad seed logits");
  }
  migrant_slots_ = in.get_array<std::uint64_t>(state_key(prefix, "migrant_slots"));
  seed_slots_ = in.get_array<std::uint64_t>(state_key(prefix, "seed_slots"));
  for (const auto* slots : {&migrant_slots_, &seed_slots_})
    for (const std::uint64_t s : *slots)
      if (s >= individuals_.size()) fail("bad migrant or seed slot");
  for (const auto& [name, stats] :
       {std::pair{"migration_stats", &stats_}, std::pair{"seed_stats", &seed_stats_}}) {
    const std::vector<std::uint64_t> counts = in.get_array<std::uint64_t>(state_key(prefix, name));
    if (counts.size() != 4) fail(std::string("bad ") + name);
    *stats = MigrationStats{counts[0], counts[1], counts[2], counts[3]};
  }
}

}  // namespace memplace::agents
