def generate(prompt):
    return prompt
