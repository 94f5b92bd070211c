// Package deploy_test checks the cluster files in deploy/ with the tools
// that run them: kubectl for deploy/kubernetes (CI installs Debian's
// kubernetes-client when kubectl is absent) and actionlint for
// deploy/github (.ci/run runs it with go run).
package deploy_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// discovery is what a Kubernetes API server says of the kinds the files
// use: kubectl apply, even with --dry-run=client, maps each object's kind
// to a resource through the server's discovery documents and asks
// whether the object exists (kubernetes/kubectl#1589).
var discovery = map[string]any{
	"/api":  map[string]any{"kind": "APIVersions", "versions": []string{"v1"}},
	"/apis": map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": []any{batchGroup}},
	"/api/v1": map[string]any{"kind": "APIResourceList", "groupVersion": "v1", "resources": []any{
		resource("persistentvolumeclaims", "PersistentVolumeClaim"),
	}},
	"/apis/batch/v1": map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "batch/v1", "resources": []any{
		resource("jobs", "Job"),
	}},
}

var batchGroup = map[string]any{
	"name":             "batch",
	"versions":         []any{map[string]string{"groupVersion": "batch/v1", "version": "v1"}},
	"preferredVersion": map[string]string{"groupVersion": "batch/v1", "version": "v1"},
}

func resource(name, kind string) map[string]any {
	return map[string]any{"name": name, "singularName": "", "namespaced": true, "kind": kind,
		"verbs": []string{"create", "delete", "get", "list", "patch", "update", "watch"}}
}

// dryRunner runs kubectl apply --dry-run=client against a stand-in API
// server on loopback that answers discovery and says no object exists
// yet.
type dryRunner struct {
	kubectl, config, dir string
}

func newDryRunner(t *testing.T) *dryRunner {
	t.Helper()
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (Debian package kubernetes-client)")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if doc, ok := discovery[r.URL.Path]; ok && r.Method == http.MethodGet {
			json.NewEncoder(w).Encode(doc)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404})
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	config := filepath.Join(dir, "kubeconfig")
	os.WriteFile(config, []byte(`apiVersion: v1
kind: Config
clusters: [{name: stand-in, cluster: {server: "`+srv.URL+`"}}]
users: [{name: nobody, user: {}}]
contexts: [{name: stand-in, context: {cluster: stand-in, user: nobody, namespace: default}}]
current-context: stand-in
`), 0o600)
	return &dryRunner{kubectl: kubectl, config: config, dir: dir}
}

// apply returns the names of the objects kubectl would create from file.
func (d *dryRunner) apply(file string) ([]string, error) {
	cmd := exec.Command(d.kubectl, "--kubeconfig", d.config, "--cache-dir", filepath.Join(d.dir, "cache"),
		"apply", "--dry-run=client", "--validate=false", "-o", "name", "-f", file)
	cmd.Env = append(os.Environ(), "HOME="+d.dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("kubectl apply --dry-run=client -f %s: %w\n%s", file, err, out)
	}
	return strings.Fields(string(out)), nil
}

// TestKubernetesDryRun runs kubectl apply --dry-run=client on every file
// of deploy/kubernetes and checks that kubectl reads each object and
// would create it.
func TestKubernetesDryRun(t *testing.T) {
	d := newDryRunner(t)
	files, _ := filepath.Glob("kubernetes/*.yaml")
	if len(files) == 0 {
		t.Fatal("no files in deploy/kubernetes")
	}
	for _, f := range files {
		names, err := d.apply(f)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(names) == 0 {
			t.Errorf("%s: kubectl read no object", f)
		}
		for _, n := range names {
			if !strings.HasPrefix(n, "job.batch/reptest-") && !strings.HasPrefix(n, "persistentvolumeclaim/reptest-") {
				t.Errorf("%s: unexpected object %s", f, n)
			}
		}
		t.Logf("%s: %s", f, strings.Join(names, " "))
	}
}

// TestKubernetesDryRunFails checks that the dry run would fail CI on a
// broken file: spoilt copies of diff-job.yaml (YAML that does not parse,
// a kind the API does not have, an object without a kind) are refused.
// Field-level mistakes are not caught: client-side validation needs the
// API server's OpenAPI schema, which the stand-in does not serve.
func TestKubernetesDryRunFails(t *testing.T) {
	d := newDryRunner(t)
	good, err := os.ReadFile("kubernetes/diff-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(string) string{
		"yaml":    func(s string) string { return strings.Replace(s, "spec:\n", "spec: [\n", 1) },
		"kind":    func(s string) string { return strings.Replace(s, "kind: Job", "kind: Jobb", 1) },
		"no kind": func(s string) string { return strings.Replace(s, "kind: Job\n", "", 1) },
	} {
		broken := spoil(string(good))
		if broken == string(good) {
			t.Fatalf("%s: the spoiling changed nothing", name)
		}
		f := filepath.Join(t.TempDir(), "broken.yaml")
		os.WriteFile(f, []byte(broken), 0o644)
		if names, err := d.apply(f); err == nil {
			t.Errorf("%s: kubectl accepted a broken file: %v", name, names)
		}
	}
}
