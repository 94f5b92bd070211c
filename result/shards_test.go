package result

import (
	"strings"
	"testing"
)

// CheckShards tells every shard of a run from an incomplete or mixed set.
func TestCheckShards(t *testing.T) {
	doc := func(shard string, cases, held int) *Document {
		return &Document{Tool: Tool, Selection: &Selection{Cases: cases, Shard: shard, ShardCases: held}}
	}
	for _, tt := range []struct {
		name string
		docs []*Document
		want string // in the error; "" for none
	}{
		{"whole", []*Document{doc("1/1", 5, 5)}, ""},
		{"all shards", []*Document{doc("2/3", 9, 3), doc("1/3", 9, 4), doc("3/3", 9, 2)}, ""},
		{"one missing", []*Document{doc("1/4", 9, 3), doc("2/4", 9, 2), doc("4/4", 9, 2)}, "missing shard 3/4"},
		{"alone", []*Document{doc("2/4", 9, 3)}, "missing shards 1/4, 3/4, 4/4"},
		{"twice", []*Document{doc("1/2", 9, 3), doc("1/2", 9, 3), doc("2/2", 9, 6)}, "shard 1/2 is given twice"},
		{"other run", []*Document{doc("1/2", 9, 3), doc("2/3", 9, 3)}, "not 2"},
		{"other selection", []*Document{doc("1/2", 9, 3), doc("2/2", 8, 6)}, "selection of 8 cases"},
		{"cases lost", []*Document{doc("1/2", 9, 3), doc("2/2", 9, 5)}, "the shards hold 8 cases, the selection 9"},
		{"unrecorded", []*Document{{Tool: Tool}, {Tool: Tool}}, ""},
		{"mixed", []*Document{doc("1/1", 9, 9), {Tool: Tool}}, "do not record their shard"},
	} {
		err := CheckShards(tt.docs)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}
