// Package deploy_test checks the cluster files in deploy/ with the tools
// that run them: kubectl for deploy/kubernetes (CI installs Debian's
// kubernetes-client when kubectl is absent) and actionlint for
// deploy/github (.ci/run runs it with go run).
package deploy_test

import (
	"encoding/json"
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

// TestKubernetesDryRun runs kubectl apply --dry-run=client on every file
// of deploy/kubernetes against a stand-in API server on loopback that
// answers discovery and says no object exists yet, and checks that
// kubectl reads each object and would create it.
func TestKubernetesDryRun(t *testing.T) {
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
	defer srv.Close()
	dir := t.TempDir()
	config := filepath.Join(dir, "kubeconfig")
	os.WriteFile(config, []byte(`apiVersion: v1
kind: Config
clusters: [{name: stand-in, cluster: {server: "`+srv.URL+`"}}]
users: [{name: nobody, user: {}}]
contexts: [{name: stand-in, context: {cluster: stand-in, user: nobody, namespace: default}}]
current-context: stand-in
`), 0o600)
	files, _ := filepath.Glob("kubernetes/*.yaml")
	if len(files) == 0 {
		t.Fatal("no files in deploy/kubernetes")
	}
	for _, f := range files {
		cmd := exec.Command(kubectl, "--kubeconfig", config, "--cache-dir", filepath.Join(dir, "cache"),
			"apply", "--dry-run=client", "--validate=false", "-o", "name", "-f", f)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("kubectl apply --dry-run=client -f %s: %v\n%s", f, err, out)
			continue
		}
		names := strings.Fields(string(out))
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
