#include "server/json_error.h"

#include <boost/json.hpp>

namespace gs {

HttpResult json_error(int status, const std::string& message) {
  return {status, "application/json", boost::json::serialize(boost::json::object{{"error", message}})};
}

}  // namespace gs
