# xqbot client tests
