#include "integration_fixture.h"

TestServers* g_servers = nullptr;
