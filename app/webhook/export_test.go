package webhook

// HasSummaryFields reports whether Summarize knows fields for the type.
func HasSummaryFields(path string) bool { return len(summaryFields[CanonicalPath(path)]) > 0 }
