// Package review holds a bulk request while an operator reviews it: its
// elements, every problem at the cell it belongs to, the control totals,
// and the edits that correct it. The console's Web Worker keeps one
// [Document] per loaded file and answers the page's questions from it;
// the page itself holds only the rows it shows.
//
// A Document comes from a spreadsheet, CSV or pasted table read through
// app/ingest ([FromImport]), or from a JSON request body ([FromRequest]).
// Either way it shows as a table of [Column]s and rows, one row per
// element in file order:
//
//   - for a table, the columns are the file's mapped columns and a cell
//     shows what the file holds; an edit changes the cell and builds its
//     element again, as the file would have given it;
//   - for a request body, the columns are the fields the elements carry
//     (and the required ones they lack); an edit sets the field, typed as
//     the contract wants it.
//
// Each change says what it overwrote ([Document.EditCell],
// [Document.ReplaceCells], [Document.UpperCase]: a [Change]), and
// [Document.Undo] puts it back as the file had it, last change first.
//
// After every change the element is validated again, and the summary
// ([Document.Summary]: counts, totals per currency and per source
// instrument, duplicate elements) is brought up to date. Duplicates — two
// elements with the same content — are warnings: the API would carry out
// both. Amounts whose currency is not a valid ISO 4217 code ("eur",
// "EURO", none) are totalled together in one row marked
// [money.Total.Invalid], never as a currency of their own: the review and
// app/submission's control totals both sum with [money.Totals]. A code the
// contract's pattern lets through but ISO 4217 does not know (EUD) is a
// warning at its cell too (schema.CurrencyCode), which problem navigation
// reaches like any other. The plausibility warnings of
// app/ingest (amounts far above their currency's median or above the
// operator's limits, [Document.SetAmountLimits]; ids of different
// lengths) apply to tables and request bodies alike.
//
// What the Document would send is [Document.Elements], with
// [Document.Report] its problems and [Document.Origin] the row each
// element came from. The files an operator takes away (the request body
// exactly as it would be sent, the error workbook, the manifest) are
// written by app/export from [Document.ErrorTable] and [Document.Summary]:
// this package plans no submission and writes no workbook.
package review
