package parsers

import (
	"os"
	"testing"
)

// TestMain lets the test binary be the worker of the isolated libraries.
func TestMain(m *testing.M) {
	ServeWorkerIfAsked()
	os.Exit(m.Run())
}
