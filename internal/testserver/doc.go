// Package testserver is the one test harness of fourd's API and report
// suites (rest, graph, reports): real ClickHouse and PostgreSQL stores (a
// fresh database of each per test, from the FOURD_TEST_* URLs through
// chtest and pgtest), every engine service wired over them as cmd/fourd
// wires them, tenants with tokens and seeded data, and a real loopback
// listener for the handler a suite builds.
//
// It does not import rest, graph or reports (their in-package tests import
// it): a suite builds its handler from a Stack's services and hands it to
// Serve. A new engine service is wired once, in Stack.NewServices.
package testserver
