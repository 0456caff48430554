"""limpet.prompts."""
