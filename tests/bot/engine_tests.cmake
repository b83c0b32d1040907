# engine tests: the computer opponent's move choice (clients/bot/engine), pure, node-limited so the
# answers are repeatable.
file(GLOB ENGINE_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/engine_*.cpp)
add_executable(engine_tests ${ENGINE_TEST_SOURCES})
target_link_libraries(engine_tests PRIVATE xqengine GTest::gtest_main)
gtest_discover_tests(engine_tests DISCOVERY_TIMEOUT 60)
# engine_cli_test.cpp runs `xq bestmove`.
add_dependencies(engine_tests xq)
target_compile_definitions(engine_tests PRIVATE XQ_BINARY="$<TARGET_FILE:xq>")
