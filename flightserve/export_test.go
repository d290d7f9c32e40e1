package flightserve

// QuoteLabel quotes a Prometheus label value, for the tests.
var QuoteLabel = quote
