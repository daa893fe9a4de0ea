#include "allocation/search_interface.hpp"

namespace memplace::allocation {

std::string name_of(RankOrder order) {
  switch (order) {
    case RankOrder::size:
      return "size";
    case RankOrder::lifetime:
      return "lifetime";
    case RankOrder::area:
      return "area";
    case RankOrder::short_lifetime:
      return "short lifetime";
    case RankOrder::early_end:
      return "early end";
    case RankOrder::late_end:
      return "late end";
    case RankOrder::busiest_section:
      return "busiest section";
  }
  return "?";
}

}  // namespace memplace::allocation
