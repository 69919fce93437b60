//! API tests against the router.
