agent = Agent(name="a", system_prompt="never closed)
