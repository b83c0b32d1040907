// The one translation unit that compiles Asio and Beast (BOOST_*_SEPARATE_COMPILATION): every
// other file only includes declarations, which keeps rebuilds fast.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
