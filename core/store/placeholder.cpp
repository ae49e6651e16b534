// Build placeholder: replaced by the first real source of core/store.
