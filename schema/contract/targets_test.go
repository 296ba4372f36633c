package contract_test

import "github.com/bulkdesk/bulkdesk/schema/contract"

// bulkTargets are the real bulk kinds and their submission operations.
var bulkTargets = []contract.Target{
	{Kind: "users", Method: "POST", Path: "/bulks/users"},
	{Kind: "user_invites", Method: "POST", Path: "/bulks/users/_user_id_/invite"},
	{Kind: "card_blocks", Method: "POST", Path: "/bulks/managed_cards/_id_/block"},
	{Kind: "card_unblocks", Method: "POST", Path: "/bulks/managed_cards/_id_/unblock"},
	{Kind: "card_removals", Method: "POST", Path: "/bulks/managed_cards/_id_/remove"},
	{Kind: "card_spend_rules", Method: "PATCH", Path: "/bulks/managed_cards/_id_/spend_rules"},
	{Kind: "transfers", Method: "POST", Path: "/bulks/transfers"},
	{Kind: "sends", Method: "POST", Path: "/bulks/sends"},
	{Kind: "outgoing_wire_transfers", Method: "POST", Path: "/bulks/outgoing_wire_transfers"},
}
