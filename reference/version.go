package reference

// Version is reptest's version: the version of this reference
// implementation, which its adapters report as the parser version, and of
// the tool that writes results documents (report.Meta).
const Version = "0.1.0"
