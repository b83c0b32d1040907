// Clubs: what the club commands decide without Redis (matchmaker/service/service.cpp does the
// reading and writing).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace xq::mm {

// An event blocks its club's deletion until it has finished or been cancelled: running it
// (club organisers) and joining it (members only) go through the club. `stage` as in the public view.
bool stage_blocks_club_deletion(const std::string& stage);

// The ids of the events of `club_id` that block its deletion, in the order given; `public_views`
// holds each event's id and its public view (the JSON served as GET /api/events/{id}). A view
// that does not parse names no club and is passed over.
std::vector<std::string> events_blocking_club_deletion(
    const std::string& club_id, const std::vector<std::pair<std::string, std::string>>& public_views);

// Why the club cannot be deleted, naming up to five of those events; empty if none blocks it.
std::string club_deletion_refusal(const std::vector<std::string>& blocking_event_ids);

}  // namespace xq::mm
