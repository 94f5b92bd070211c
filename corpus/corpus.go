// Package corpus holds reptest's test cases and requirement table as data,
// compiled into the binary.
//
// The case files are the *.yaml files one folder down, a folder per area
// of the requirement table, named after it (corpus/matching/longest.yaml,
// ...). requirements.yaml at the top is the requirement table: the areas
// and every ID a case may name in its req list. Package cases reads both;
// docs/FORMAT.md §1 describes their format.
package corpus

import (
	"embed"
	"io/fs"
)

// files embeds the requirement table and the case files one folder down.
// A pattern naming whole directories ("*" or a folder list) would fail to
// build while a folder is empty, as folders are while cases are being
// written, and "*" would also take this package's Go files. "*/*.yaml"
// matches files only, so empty and new folders need no change here; it
// needs at least one case file to exist, and it does not reach deeper
// folders (the package test fails if a case file on disk is not embedded).
//
//go:embed requirements.yaml */*.yaml
var files embed.FS

// FS returns the embedded corpus: requirements.yaml at the root and the
// case files in the folders below. The file system is read-only.
func FS() fs.FS {
	return files
}

// RequirementsFile is the name, in FS, of the requirement table.
const RequirementsFile = "requirements.yaml"
