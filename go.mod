module github.com/bulkdesk/bulkdesk

go 1.26

require github.com/santhosh-tekuri/jsonschema/v6 v6.0.3

require golang.org/x/text v0.38.0 // indirect
