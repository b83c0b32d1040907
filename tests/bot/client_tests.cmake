# xqbot against the real thing: a throwaway redis-server, the real gameserver and the real xqbot
# binary as processes, a test client over WebSocket (the fixtures of tests/gameserver).
# The fixtures' two files are compiled here on their own: they need none of the server library
# that gameserver_test_support links, so the bot's tests do not wait for all of xqserver.
add_library(bot_test_support STATIC ${CMAKE_SOURCE_DIR}/tests/gameserver/test_server.cpp
                                    ${CMAKE_SOURCE_DIR}/tests/gameserver/ws_client.cpp)
target_include_directories(bot_test_support PUBLIC ${CMAKE_SOURCE_DIR}/tests/gameserver)
target_link_libraries(bot_test_support PUBLIC xqasio xqproto xqrules GTest::gtest)

# The gameserver the tests start: the project's own target, or (XQBOT_TEST_GAMESERVER, for a
# build that only wants the bot) a gameserver binary built elsewhere from the same sources.
set(XQBOT_TEST_GAMESERVER "" CACHE FILEPATH "tests/bot: run the bot's tests against this gameserver binary instead of building the gameserver target")
if(XQBOT_TEST_GAMESERVER)
  target_compile_definitions(bot_test_support PRIVATE GAMESERVER_BIN="${XQBOT_TEST_GAMESERVER}")
else()
  target_compile_definitions(bot_test_support PRIVATE GAMESERVER_BIN="$<TARGET_FILE:gameserver>")
  add_dependencies(bot_test_support gameserver)
endif()

add_executable(bot_client_tests ${CMAKE_CURRENT_SOURCE_DIR}/bot_client_test.cpp)
target_link_libraries(bot_client_tests PRIVATE bot_test_support xqbotlib GTest::gtest_main)
target_compile_definitions(bot_client_tests PRIVATE XQBOT_BIN="$<TARGET_FILE:xqbot>")
add_dependencies(bot_client_tests xqbot)
gtest_discover_tests(bot_client_tests DISCOVERY_TIMEOUT 30 PROPERTIES TIMEOUT 60)
